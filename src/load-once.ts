/**
 * A module loaded on its first use and kept. Every `import()` call goes
 * through the module loader (and any loader hook) even when the module is
 * already loaded, which per read or per row group adds up; later calls here
 * return the first call's promise. A failed load is not kept, so a chunk a
 * browser could not fetch is tried again on the next call.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    if (!loaded) {
      loaded = load();
      loaded.catch(() => { loaded = undefined; });
    }
    return loaded;
  };
}
