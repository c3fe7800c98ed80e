/** A setting that cannot be used: names the variable and what is wrong with it, in one line. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = "ConfigError";
  }
}
