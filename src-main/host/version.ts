/** Kept in step with package.json by the release script; read at run time without touching the file system. */
export const HEARTH_VERSION = '0.1.0';
