/** Test helpers of the core package (never imported by production code). */
export * from "./budgets";
export * from "./fleet";
