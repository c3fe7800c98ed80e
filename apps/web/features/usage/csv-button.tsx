"use client";

import { Button } from "@/components/ui/button";
import { DownloadIcon } from "@/components/ui/icons";
import { type CsvColumn, toCsv } from "./csv";

/** Downloads the rows on screen as a CSV file, built in the browser from the same data. */
export function CsvButton<T>({
  label,
  fileName,
  columns,
  rows,
}: {
  /** The button's accessible name, e.g. "Download providers CSV". */
  label: string;
  fileName: string;
  columns: CsvColumn<T>[];
  rows: readonly T[];
}) {
  const download = () => {
    const blob = new Blob([toCsv(columns, rows)], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = fileName;
    document.body.append(a);
    a.click();
    a.remove();
    // The click has handed the blob to the download; free it once the browser has read it.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <Button variant="secondary" size="sm" onClick={download} aria-label={label} title={label}>
      <DownloadIcon size={13} /> CSV
    </Button>
  );
}
