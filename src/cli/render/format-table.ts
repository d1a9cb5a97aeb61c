/** Lays out rows as aligned columns under a header; cells are cut at `maxCellWidth` characters (default 60). */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  maxCellWidth = 60,
): string[] {
  const cut = (cell: string): string => (cell.length > maxCellWidth ? `${cell.slice(0, maxCellWidth - 1)}…` : cell);
  const all = [header, ...rows].map((row) => row.map(cut));
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}
