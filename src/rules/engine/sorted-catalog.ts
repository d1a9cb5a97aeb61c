const catalogSets = new WeakMap<readonly string[], ReadonlySet<string>>();
const sortedCatalogs = new WeakMap<readonly string[], readonly string[]>();

/** The catalog's names, unique and sorted, cached per catalog array (treat catalogs as immutable). */
export function sortedCatalog(catalog: readonly string[]): readonly string[] {
  let sorted = sortedCatalogs.get(catalog);
  if (!sorted) {
    sorted = [...new Set(catalog)].sort();
    sortedCatalogs.set(catalog, sorted);
  }
  return sorted;
}

/** The catalog as a set, cached per catalog array. */
export function catalogSet(catalog: readonly string[]): ReadonlySet<string> {
  let set = catalogSets.get(catalog);
  if (!set) {
    set = new Set(catalog);
    catalogSets.set(catalog, set);
  }
  return set;
}
