import { describe, expect, it } from "vitest";
import { csvField, csvFileName, toCsv } from "./csv";

describe("csvField", () => {
  it("quotes commas, quotes, line breaks and edge spaces (RFC 4180)", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField("cr\r")).toBe('"cr\r"');
    expect(csvField(" padded")).toBe('" padded"');
  });
  it("writes numbers and decimal strings as they are, blanks for missing values", () => {
    expect(csvField(1234)).toBe("1234");
    expect(csvField("0.0000001230")).toBe("0.0000001230");
    expect(csvField("-1.5")).toBe("-1.5");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(Number.NaN)).toBe("");
    expect(csvField(true)).toBe("true");
  });
  it("defuses text a spreadsheet would run as a formula", () => {
    expect(csvField("=SUM(A1:A2)")).toBe("'=SUM(A1:A2)");
    expect(csvField("@cmd")).toBe("'@cmd");
    expect(csvField("+1-2,3")).toBe(`"'+1-2,3"`);
    expect(csvField("-team")).toBe("'-team");
  });
});

describe("toCsv", () => {
  it("writes a header row and one CRLF-terminated line per row", () => {
    const rows = [
      { model: "gpt-4o-mini", calls: 3, cost: "0.00135" as string | null },
      { model: "my,model", calls: 1, cost: null },
    ];
    const csv = toCsv(
      [
        { header: "Model", value: (r) => r.model },
        { header: "Calls", value: (r) => r.calls },
        { header: "Cost (USD)", value: (r) => r.cost },
      ],
      rows,
    );
    expect(csv).toBe('Model,Calls,Cost (USD)\r\ngpt-4o-mini,3,0.00135\r\n"my,model",1,\r\n');
  });
  it("writes only the header for no rows", () => {
    expect(toCsv([{ header: "A", value: () => 1 }], [])).toBe("A\r\n");
  });
});

describe("csvFileName", () => {
  it("names the table, the scope and the dates", () => {
    expect(csvFileName("providers", { from: "2026-11-26", to: "2026-12-02" })).toBe(
      "usage-providers-2026-11-26_2026-12-02.csv",
    );
    expect(csvFileName("runs", { from: "2026-12-01", to: "2026-12-02" }, "proj a/b")).toBe(
      "usage-proj-a-b-runs-2026-12-01_2026-12-02.csv",
    );
  });
});
