export { type CronConfig, cronConfigSchema, parseCronConfig } from './cron-config.js';
export {
  type CronDelivery,
  type CronJob,
  type CronJobInput,
  type CronJobPatch,
  type CronRunRecord,
  type CronRunResult,
  type CronRunStatus,
  cronJobInputSchema,
  cronJobPatchSchema,
} from './cron-job.js';
export { type CronSchedule, describeSchedule, nextRunAfter, parseSchedule } from './cron-schedule.js';
export { type CronCatchUp, catchUpGraceMs, dueJobs } from './cron-scheduler.js';
export {
  type CronJobRunner,
  type CronService,
  type CronServiceDeps,
  type CronStatus,
  createCronService,
} from './cron-service.js';
export { CRON_FILE_VERSION, type CronStore, CronStoreError, createCronStore } from './cron-store.js';
export { createCronTools } from './cron-tools.js';
