// `npm start`'s mail catcher when no SMTP_URL is set: a local SMTP server keeping every message under
// SMTP_CATCHER_DIR, so the stack's e-mails can be read without a mail provider.
import { loadConfig } from '@backbone/config';
import { createLogger, writeLogsBeforeExit } from '@backbone/logging';
import { startSmtpCatcher } from './smtp-catcher.js';

const config = loadConfig({
  type: 'object',
  properties: {
    SMTP_CATCHER_PORT: { type: 'integer', default: 1025, minimum: 0, maximum: 65535, description: "The local mail catcher's SMTP port (npm start)." },
    SMTP_CATCHER_DIR: { type: 'string', default: '.data/mail', description: 'Where the local mail catcher keeps each message it receives (.eml).' },
    LOG_LEVEL: { type: 'string', default: 'info', description: 'pino log level.' },
  },
});
const logger = createLogger({ level: config.LOG_LEVEL, name: 'smtp-catcher' });
writeLogsBeforeExit(logger);
const catcher = await startSmtpCatcher({ port: config.SMTP_CATCHER_PORT, directory: config.SMTP_CATCHER_DIR });
logger.info({ port: catcher.port, directory: config.SMTP_CATCHER_DIR }, 'smtp catcher running');
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    void catcher.close().then(() => process.exit(0));
  });
