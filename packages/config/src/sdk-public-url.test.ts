import { describe, expect, it } from "vitest";
import { parseConfig, sdkPublicUrl } from "./index";

describe("sdkPublicUrl", () => {
  it("is SDK_PUBLIC_URL when set (no trailing slash), else the lean server on SDK_PORT", () => {
    expect(sdkPublicUrl(parseConfig({ SDK_PUBLIC_URL: "https://sdk.example.com/" }))).toBe(
      "https://sdk.example.com",
    );
    expect(sdkPublicUrl(parseConfig({ SDK_PORT: "4001" }))).toBe("http://localhost:4001");
    expect(sdkPublicUrl(parseConfig({}))).toBe("http://localhost:3001");
  });

  it("refuses a URL without an http(s) scheme, naming the variable", () => {
    expect(() => parseConfig({ SDK_PUBLIC_URL: "sdk.example.com" })).toThrow(/SDK_PUBLIC_URL/);
  });
});
