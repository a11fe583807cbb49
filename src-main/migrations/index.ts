// Upgrades that never break (issue 22, docs/UPGRADES.md): every on-disk format's version, the
// migrations that run at start with a backup first, the crash-twice restore, the newer-file refusal.

export { inspectHome, migrateHome, NewerFormatError, refuseNewerFormats } from './migrate-home.js';
export { type Backup, type BackupManifest, backupsDir, listBackups, restoreBackup } from './migration-backup.js';
export {
  prepareStartUpgrade,
  readUpgradeReport,
  type StartUpgrade,
  type UpgradeReport,
} from './start-upgrade.js';
export { type MigrationStep, readJsonVersion, type StoreCopy, type StoreFormat } from './store-format.js';
export { hearthStoreFormats } from './store-formats.js';
export { startMarkerPath, type UpgradeEvent, upgradeStatePath } from './upgrade-state.js';
