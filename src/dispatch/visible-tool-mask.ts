/**
 * Which tools of a catalog are visible this turn, as a hex bit mask over the catalog's order (bit
 * `i` of the mask is tool `i`; the first hex digit holds tools 0 to 3): what the model call's input
 * carries instead of the tools' names and schemas.
 */
export function visibleToolMask(catalog: readonly string[], visible: ReadonlySet<string>): string {
  let mask = '';
  for (let start = 0; start < catalog.length; start += 4) {
    let digit = 0;
    for (let bit = 0; bit < 4; bit++) {
      const name = catalog[start + bit];
      if (name !== undefined && visible.has(name)) digit |= 1 << bit;
    }
    mask += digit.toString(16);
  }
  return mask;
}

/** Whether tool `index` of the catalog is visible under `mask` (see {@link visibleToolMask}). */
export function isVisibleInMask(mask: string, index: number): boolean {
  const digit = Number.parseInt(mask.charAt(index >> 2) || '0', 16);
  return (digit & (1 << (index & 3))) !== 0;
}
