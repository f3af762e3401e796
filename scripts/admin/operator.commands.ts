// Admin CLI commands for the console's users: create one (printing a one-time password, or taking one from stdin),
// reset a password, disable a user. Both of the latter end the user's sessions. Output members are PascalCase.
import { bookingPageChangesSchema, newUserSchema, OPERATOR_ROLES, type OperatorRole } from '@backbone/contracts';
import { findAccount, type OperatorUser, type Pool } from '@backbone/db';
import { createOperatorUser, disableOperatorUser, resetOperatorPassword, updateOperatorBookingPage } from '@backbone/use-cases';
import { checkAgainstContract, CLI_ACTOR, naming, requireOption, type AdminCommand } from './command.js';

type Options = Record<string, string | boolean | string[] | undefined>;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

async function accountIdOf(pool: Pool, options: Options): Promise<string> {
  const id = requireOption(options, 'account');
  if (!UUID.test(id)) throw new Error(`--account must be a UUID, got '${id}'`);
  const account = await findAccount(pool, id.toLowerCase());
  if (!account) throw new Error(`no account ${id}`);
  return account.id;
}

/** The password piped on stdin (first line), when --password-stdin is given; otherwise one is generated. */
async function passwordFrom(options: Options): Promise<string | undefined> {
  if (options['password-stdin'] !== true) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  if (password === '') throw new Error('--password-stdin: nothing was read from stdin');
  return password;
}

function describe(user: OperatorUser) {
  return { UserID: user.id, AccountID: user.accountId, Email: user.email, Role: user.role, Disabled: user.disabled, CreatedAt: user.createdAt };
}

function withPassword(user: OperatorUser, password: string, generated: boolean) {
  return generated ? { ...describe(user), Password: password, Note: 'A one-time password: it is not shown again.' } : describe(user);
}

const passwordOptions = { 'password-stdin': { type: 'boolean' } } as const;

/** The options a user's fields come from. */
const USER_OPTIONS = { Email: 'email', Role: 'role', Password: 'password-stdin' };

export const operatorCommands: Record<string, AdminCommand> = {
  'create-user': {
    summary: 'Create a console user; prints a one-time password unless one is piped with --password-stdin.',
    usage: `--account <uuid> --email <address> --role ${OPERATOR_ROLES.join('|')} [--password-stdin]`,
    options: { account: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' }, ...passwordOptions },
    async run(options, { pool }) {
      const accountId = await accountIdOf(pool, options);
      const email = requireOption(options, 'email');
      const role = requireOption(options, 'role');
      // The console's own check of a new user (createOperatorUser's route takes the same body).
      checkAgainstContract(newUserSchema, 'body', { Email: email, Role: role }, USER_OPTIONS);
      const given = await passwordFrom(options);
      const request = { accountId, email, role: role as OperatorRole, password: given, actor: CLI_ACTOR };
      const { user, password } = await naming(USER_OPTIONS, () => createOperatorUser({ pool }, request));
      return withPassword(user, password, given === undefined);
    },
  },

  'reset-password': {
    summary: 'Give a console user a new password (printed once unless piped) and end its sessions.',
    usage: '--account <uuid> --email <address> [--password-stdin]',
    options: { account: { type: 'string' }, email: { type: 'string' }, ...passwordOptions },
    async run(options, { pool }) {
      const accountId = await accountIdOf(pool, options);
      const given = await passwordFrom(options);
      const request = { accountId, email: requireOption(options, 'email'), password: given, actor: CLI_ACTOR };
      const { user, password } = await naming(USER_OPTIONS, () => resetOperatorPassword({ pool }, request));
      return withPassword(user, password, given === undefined);
    },
  },

  'disable-user': {
    summary: 'Disable a console user: it can no longer sign in, and its sessions end.',
    usage: '--account <uuid> --email <address>',
    options: { account: { type: 'string' }, email: { type: 'string' } },
    async run(options, { pool }) {
      const accountId = await accountIdOf(pool, options);
      return describe(await disableOperatorUser({ pool }, { accountId, email: requireOption(options, 'email'), actor: CLI_ACTOR }));
    },
  },

  'set-booking-page': {
    summary: "Turn the account's online booking page on at /book/<slug> (--slug), or off (--disable).",
    usage: '--account <uuid> (--slug <slug> | --disable)',
    options: { account: { type: 'string' }, slug: { type: 'string' }, disable: { type: 'boolean' } },
    async run(options, { pool }) {
      const accountId = await accountIdOf(pool, options);
      const disable = options.disable === true;
      const slug = typeof options.slug === 'string' ? options.slug : undefined;
      if (disable === (slug !== undefined)) throw new Error('give either --slug <slug> or --disable');
      const changes = disable ? { Enabled: false } : { Enabled: true, Slug: slug };
      // The console's own check of the changes (updateOperatorBookingPage's route takes the same body).
      checkAgainstContract(bookingPageChangesSchema, 'body', changes, { Slug: 'slug', Enabled: 'disable' });
      return naming({ Slug: 'slug', Enabled: 'disable' }, () => updateOperatorBookingPage({ pool }, { accountId, changes, actor: { kind: 'cli' } }));
    },
  },
};
