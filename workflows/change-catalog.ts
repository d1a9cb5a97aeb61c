import { heldCatalog } from '../src/dispatch';
import type { SessionCatalog } from '../src/session';
import type { Session } from './session';

/**
 * The session's catalog is now `catalog` (the session holds its names, `heldCatalog`); names in its
 * `tools` the worker lacks are said when they change.
 */
export function changeCatalog(session: Session, catalog: SessionCatalog): void {
  const before = session.state.catalog.unknownTools ?? [];
  session.emit({ type: 'catalog_changed', catalog: heldCatalog(catalog) });
  const unknownTools = catalog.unknownTools ?? [];
  // A name in `tools` the worker lacks is said once, when the set of such names changes (it may
  // come with a later worker).
  if (
    unknownTools.length > 0 &&
    unknownTools.map(({ name }) => name).join() !== before.map(({ name }) => name).join()
  ) {
    const named = unknownTools.map(({ name, nearest }) =>
      nearest ? `"${name}" (did you mean "${nearest}"?)` : `"${name}"`,
    );
    const them = unknownTools.length === 1 ? 'it' : 'them';
    const text = `[toolrail] the session's tools name ${named.join(', ')}, which this worker does not have: the session goes on without ${them}`;
    session.emit({ type: 'notice', text });
  }
}
