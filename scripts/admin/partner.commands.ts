// Admin CLI commands for operators: accounts, partners, API keys, activities, timeslots, waiver questions and bookings.
// Each write goes through the use case the console's and the partner API's routes call, so the CLI applies the same
// rules; a command parses its options, calls, and prints JSON with the API's PascalCase members, so a script reads
// `.ID` whether it got an account from here or an activity from the API.
import {
  bookingReferenceParams,
  cancelBookingRequestSchema,
  saleRequestSchema,
  SCOPES,
  type NewQuestion,
  type SaleRequest,
  type Scope,
  type TimeslotPattern,
} from '@backbone/contracts';
import {
  findAccount,
  findActivity,
  listAccounts,
  listActivities,
  listApiKeys,
  listBookings,
  listPartners,
  type Account,
  type ListedBooking,
  type Pool,
} from '@backbone/db';
import { isCalendarDate, openingMinutes, parseOpeningHours, toOperatorActivity, toQuestion, type Activity, type BookingActor } from '@backbone/domain';
import { keyRevocationsOver } from '@backbone/publisher';
import {
  addOperatorQuestion,
  cancelBooking,
  createOperatorAccount,
  createOperatorActivity,
  createOperatorKey,
  createOperatorPartner,
  createSale,
  generateTimeslots,
  revokeOperatorKey,
  setKeyRateLimit,
} from '@backbone/use-cases';
import { checkAgainstContract, CLI_ACTOR, naming, requireOption, type AdminCommand } from './command.js';

/** The operator at the admin CLI: recorded in a booking's history with neither a user nor a key. */
const ADMIN_CLI: BookingActor = { kind: 'operator', userId: null, apiKeyId: null };

type Options = Record<string, string | boolean | string[] | undefined>;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function optional(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function integerOption(options: Options, name: string, fallback?: number): number {
  const raw = optional(options, name);
  if (raw === undefined) {
    if (fallback !== undefined) return fallback;
    throw new Error(`--${name} is required`);
  }
  if (!/^-?\d+$/.test(raw)) throw new Error(`--${name} must be a whole number, got '${raw}'`);
  return Number(raw);
}

function listOption(options: Options, name: string): string[] {
  return requireOption(options, name)
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function uuidOption(options: Options, name: string): string {
  const value = requireOption(options, name);
  if (!UUID.test(value)) throw new Error(`--${name} must be a UUID, got '${value}'`);
  return value.toLowerCase();
}

async function accountOf(pool: Pool, options: Options) {
  const accountId = uuidOption(options, 'account');
  const account = await findAccount(pool, accountId);
  if (!account) throw new Error(`no account ${accountId}`);
  return account;
}

async function activityOf(pool: Pool, accountId: string, options: Options): Promise<Activity> {
  const activityId = uuidOption(options, 'activity');
  const activity = await findActivity(pool, accountId, activityId);
  if (!activity) throw new Error(`no activity ${activityId} in account ${accountId}`);
  return activity;
}

function dateOption(options: Options, name: string): string | undefined {
  const value = optional(options, name);
  if (value !== undefined && !isCalendarDate(value)) throw new Error(`--${name} must be a date (YYYY-MM-DD), got '${value}'`);
  return value;
}

function describeAccount(account: Account) {
  return { ID: account.id, Name: account.name, TimeZone: account.timeZone, CreatedAt: account.createdAt };
}

function describeKey(key: { id: string; name: string; prefix: string; scopes: Scope[]; createdAt: string; partnerId?: string | null }) {
  return {
    ID: key.id,
    Name: key.name,
    Prefix: key.prefix,
    Scopes: key.scopes,
    ...(key.partnerId !== undefined ? { PartnerID: key.partnerId } : {}),
    CreatedAt: key.createdAt,
  };
}

/** The options a sale's members come from. */
function describeBooking(b: ListedBooking) {
  return {
    Reference: b.reference,
    Status: b.status,
    Channel: b.channel,
    PartnerID: b.partnerId,
    PartnerName: b.partnerName,
    ActivityID: b.activityId,
    ActivityName: b.activityName,
    Date: b.date,
    Time: b.time,
    StartsAt: b.startsAt,
    Participants: b.participants,
    Customer: b.customer,
    PaymentReference: b.paymentReference,
    Answers: b.answers,
    CreatedAt: b.createdAt.toISOString(),
    ExpiresAt: b.expiresAt?.toISOString() ?? null,
    CancelledAt: b.cancelledAt?.toISOString() ?? null,
    CancellationReason: b.cancellationReason,
  };
}

const SALE_OPTIONS = {
  ActivityID: 'activity',
  Date: 'date',
  Time: 'time',
  Participants: 'participants',
  'Customer.FirstName': 'first-name',
  'Customer.LastName': 'last-name',
  'Customer.Email': 'email',
  'Customer.Phone': 'phone',
  PaymentReference: 'payment-reference',
  channel: 'channel',
};

export const partnerCommands: Record<string, AdminCommand> = {
  'create-account': {
    summary: 'Create an operator account.',
    usage: '--name <name> [--time-zone <IANA zone, default UTC>] [--email <address>] [--phone <number>] [--website <https://…>] (the contact OCTO shows)',
    options: { name: { type: 'string' }, 'time-zone': { type: 'string' }, email: { type: 'string' }, phone: { type: 'string' }, website: { type: 'string' } },
    async run(options, { pool }) {
      const contact = { email: optional(options, 'email'), phone: optional(options, 'phone'), website: optional(options, 'website') };
      const request = { name: requireOption(options, 'name'), timeZone: optional(options, 'time-zone'), contact };
      return describeAccount(
        await naming({ name: 'name', timeZone: 'time-zone', email: 'email', phone: 'phone', website: 'website' }, () =>
          createOperatorAccount({ pool }, request),
        ),
      );
    },
  },

  'list-accounts': {
    summary: 'List every operator account (the ids the other commands take as --account), oldest first.',
    usage: '(no options)',
    options: {},
    async run(_options, { pool }) {
      return (await listAccounts(pool)).map(describeAccount);
    },
  },

  'create-partner': {
    summary: 'Create a partner (an OTA the account sells through); its keys share its bookings.',
    usage: '--account <uuid> --name <name, unique in the account regardless of case>',
    options: { account: { type: 'string' }, name: { type: 'string' } },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      const request = { accountId: account.id, name: requireOption(options, 'name') };
      const partner = await naming({ name: 'name' }, () => createOperatorPartner({ pool }, request));
      return { ID: partner.id, AccountID: account.id, Name: partner.name, CreatedAt: partner.createdAt };
    },
  },

  'list-partners': {
    summary: "List an account's partners with their number of active keys, by name.",
    usage: '--account <uuid>',
    options: { account: { type: 'string' } },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      return (await listPartners(pool, account.id)).map((p) => ({ ID: p.id, Name: p.name, ActiveKeys: p.keys, CreatedAt: p.createdAt }));
    },
  },

  'create-key': {
    summary: 'Create an API key; the secret is printed once and stored only as a hash. An ota key joins --partner, or else a new partner named after the key.',
    usage: `--account <uuid> --name <label> --scopes <comma list of ${SCOPES.join(', ')}> [--partner <partner id or name> (ota keys)] [--test (a sandbox key: test places, test bookings)]`,
    options: { account: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, partner: { type: 'string' }, test: { type: 'boolean' } },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      const request = {
        accountId: account.id,
        name: requireOption(options, 'name'),
        scopes: listOption(options, 'scopes'),
        partner: optional(options, 'partner'),
        test: options.test === true,
        actor: CLI_ACTOR,
      };
      const key = await naming({ Scopes: 'scopes', Partner: 'partner' }, () => createOperatorKey({ pool }, request));
      return { ...describeKey(key), Test: key.test, AccountID: key.accountId, Secret: key.secret, Note: 'Store the secret now: it is not shown again.' };
    },
  },

  'revoke-key': {
    summary: 'Revoke an API key; running servers hear it over Redis and refuse the key at once.',
    usage: '--account <uuid> --key <key id>',
    options: { account: { type: 'string' }, key: { type: 'string' } },
    async run(options, { pool, redisUrl }) {
      const account = await accountOf(pool, options);
      const keyId = uuidOption(options, 'key');
      const { revoked, heardBy } = await revokeOperatorKey(
        { pool, keyRevocations: keyRevocationsOver(redisUrl) },
        { accountId: account.id, keyId, actor: CLI_ACTOR },
      );
      if (!revoked) throw new Error(`account ${account.id} has no active key ${keyId}`);
      const note =
        heardBy === null
          ? 'Redis did not answer: running servers refuse the key within AUTH_CACHE_TTL_MS (5 s by default).'
          : `${heardBy} running API process(es) heard the revocation and refuse the key from now on.`;
      return { Revoked: true, ID: keyId, RunningProcessesNotified: heardBy, Note: note };
    },
  },

  'list-keys': {
    summary: "List an account's API keys (prefixes only, never secrets).",
    usage: '--account <uuid>',
    options: { account: { type: 'string' } },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      return (await listApiKeys(pool, account.id)).map((key) => ({
        ...describeKey(key),
        RevokedAt: key.revokedAt,
        Test: key.test,
        RateLimit: key.rateLimit ? { PerSecond: key.rateLimit.perSecond, Burst: key.rateLimit.burst } : null,
      }));
    },
  },

  'set-key-limit': {
    summary:
      "Give an API key its own rate limit (a burst of --burst requests at once, --per-second over time), or --clear it back to its scopes' defaults; running APIs apply it at once.",
    usage: '--account <uuid> --key <key id or prefix> (--per-second <n> --burst <n, at least --per-second> | --clear)',
    options: { account: { type: 'string' }, key: { type: 'string' }, 'per-second': { type: 'string' }, burst: { type: 'string' }, clear: { type: 'boolean' } },
    async run(options, { pool, redisUrl }) {
      const account = await accountOf(pool, options);
      const key = requireOption(options, 'key');
      const clear = options.clear === true;
      if (clear && (optional(options, 'per-second') !== undefined || optional(options, 'burst') !== undefined))
        throw new Error('--clear takes neither --per-second nor --burst');
      const limit = clear ? null : { perSecond: integerOption(options, 'per-second'), burst: integerOption(options, 'burst') };
      const { keyId, heardBy } = await naming({ perSecond: 'per-second', burst: 'burst' }, () =>
        setKeyRateLimit({ pool, keyRevocations: keyRevocationsOver(redisUrl) }, { accountId: account.id, key, limit, actor: CLI_ACTOR }),
      );
      if (!keyId) throw new Error(`account ${account.id} has no single active key with id or prefix '${key}'`);
      const note =
        heardBy === null
          ? 'Redis did not answer: running servers apply the limit within AUTH_CACHE_TTL_MS (5 s by default).'
          : `${heardBy} running API process(es) heard the change and apply it from the key's next request.`;
      return { ID: keyId, RateLimit: limit ? { PerSecond: limit.perSecond, Burst: limit.burst } : null, RunningProcessesNotified: heardBy, Note: note };
    },
  },

  'create-activity': {
    summary: 'Create an activity (a product partners can book).',
    usage:
      "--account <uuid> --name <name> [--description <text>] --duration <minutes> [--time-zone <IANA, default the account's>] " +
      '--price <minor units> --currency <ISO 4217> --max-participants <n> [--hidden (not in the shopfront)] ' +
      '[--opening-hours <09:00-18:00> (a day-admission activity, open from-to each day; --duration defaults to the hours)]',
    options: {
      account: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      duration: { type: 'string' },
      'time-zone': { type: 'string' },
      price: { type: 'string' },
      currency: { type: 'string' },
      'max-participants': { type: 'string' },
      hidden: { type: 'boolean' },
      'opening-hours': { type: 'string' },
    },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      const hoursText = optional(options, 'opening-hours');
      const openingHours = hoursText === undefined ? undefined : parseOpeningHours(hoursText);
      if (openingHours === null) throw new Error(`--opening-hours must be two clock times in order, such as 09:00-18:00; got '${hoursText}'`);
      const activity = {
        Name: requireOption(options, 'name'),
        Description: optional(options, 'description'),
        DurationMinutes: integerOption(options, 'duration', openingHours ? openingMinutes(openingHours) : undefined),
        TimeZone: optional(options, 'time-zone'),
        // The option is case-insensitive, as --days is.
        Price: { Amount: integerOption(options, 'price'), Currency: requireOption(options, 'currency').toUpperCase() },
        MaxParticipants: integerOption(options, 'max-participants'),
        InShopfront: options.hidden !== true,
      };
      const created = await createOperatorActivity({ pool }, { accountId: account.id, activity, ...(openingHours ? { openingHours } : {}), actor: CLI_ACTOR });
      // The opening hours only when it has some: otherwise the answer is the console API's, member for member.
      return {
        ...toOperatorActivity(created),
        ...(created.openingHours ? { OpeningHours: { From: created.openingHours.from, To: created.openingHours.to } } : {}),
      };
    },
  },

  'list-activities': {
    summary: "List an account's activities, offered or not.",
    usage: '--account <uuid>',
    options: { account: { type: 'string' } },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      return (await listActivities(pool, account.id)).map(toOperatorActivity);
    },
  },

  'generate-timeslots': {
    summary: "Create timeslots from a weekly pattern over a date range, in the activity's time zone.",
    usage:
      '--account <uuid> --activity <uuid> --from <YYYY-MM-DD> --to <YYYY-MM-DD> --days <mon,tue,...> --times <09:00,14:00> --capacity <n>. ' +
      'Existing (date, time) slots are kept; times skipped by a daylight-saving jump are reported. For an activity with opening hours, ' +
      'leave out --times (and --days, for every day): one admission slot a day at the opening time, lasting until closing.',
    options: {
      account: { type: 'string' },
      activity: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      days: { type: 'string' },
      times: { type: 'string' },
      capacity: { type: 'string' },
    },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      const { activityId } = await activityOf(pool, account.id, options);
      const pattern = {
        From: requireOption(options, 'from'),
        To: requireOption(options, 'to'),
        // Checked by the use case (the domain's planTimeslots), as the API's are.
        Days: (options.days === undefined && options.times === undefined ? [] : listOption(options, 'days')).map((d) =>
          d.toLowerCase(),
        ) as TimeslotPattern['Days'],
        Times: options.times === undefined ? [] : listOption(options, 'times'),
        Capacity: integerOption(options, 'capacity'),
      };
      const { activity, created, existing, skipped } = await generateTimeslots({ pool }, { accountId: account.id, activityId, pattern, actor: CLI_ACTOR });
      return {
        ActivityID: activity.activityId,
        TimeZone: activity.timeZone,
        Created: created,
        AlreadyExisting: existing,
        Skipped: skipped.map((skip) => ({ Date: skip.date, Time: skip.time, Reason: skip.reason })),
      };
    },
  },

  'add-question': {
    summary: 'Add a waiver question to an activity (shown after the existing ones).',
    usage:
      '--account <uuid> --activity <uuid> --question <text> --type <text|textarea|select|multiselect|checkbox|date|email|phone|number|file|signature> ' +
      '[--required] [--options <A,B,C> (select, multiselect)] [--per-participant]',
    options: {
      account: { type: 'string' },
      activity: { type: 'string' },
      question: { type: 'string' },
      type: { type: 'string' },
      required: { type: 'boolean' },
      options: { type: 'string' },
      'per-participant': { type: 'boolean' },
    },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      const { activityId } = await activityOf(pool, account.id, options);
      const question = {
        Question: requireOption(options, 'question'),
        // Checked by the use case (the domain's checkNewQuestion), as the API's is.
        Type: requireOption(options, 'type') as NewQuestion['Type'],
        Required: options.required === true,
        Options: optional(options, 'options') ? listOption(options, 'options') : [],
        PerParticipant: options['per-participant'] === true,
      };
      return toQuestion(await addOperatorQuestion({ pool }, { accountId: account.id, activityId, question, actor: CLI_ACTOR }));
    },
  },

  'create-booking': {
    summary: 'Book a timeslot for the online shop or the point of sale (same atomic reservation as the partner API).',
    usage:
      '--account <uuid> --activity <uuid> --date <YYYY-MM-DD> --time <HH:MM> --participants <n> --first-name <..> --last-name <..> --email <..> ' +
      '[--phone <..>] [--payment-reference <..>] [--channel online|pos (default pos)]',
    options: {
      account: { type: 'string' },
      activity: { type: 'string' },
      date: { type: 'string' },
      time: { type: 'string' },
      participants: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      'payment-reference': { type: 'string' },
      channel: { type: 'string' },
    },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      const sale = {
        ActivityID: uuidOption(options, 'activity'),
        Date: requireOption(options, 'date'),
        Time: requireOption(options, 'time'),
        Participants: integerOption(options, 'participants', 1),
        Customer: {
          FirstName: requireOption(options, 'first-name'),
          LastName: requireOption(options, 'last-name'),
          Email: requireOption(options, 'email'),
          ...(optional(options, 'phone') !== undefined ? { Phone: optional(options, 'phone') } : {}),
        },
        ...(optional(options, 'payment-reference') !== undefined ? { PaymentReference: optional(options, 'payment-reference') } : {}),
      };
      checkAgainstContract(saleRequestSchema, 'body', sale, SALE_OPTIONS);
      const request = { accountId: account.id, apiKeyId: null, userId: null, channel: optional(options, 'channel'), sale: sale as SaleRequest };
      return (await naming(SALE_OPTIONS, () => createSale({ pool }, request))).value;
    },
  },

  'cancel-booking': {
    summary: "Cancel a booking as the operator: any channel or partner, at any time (past the activity's cutoff too). Cancelling again changes nothing.",
    usage: '--account <uuid> --reference <booking reference> [--reason <text, up to 500 characters>]',
    options: { account: { type: 'string' }, reference: { type: 'string' }, reason: { type: 'string' } },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      const reference = requireOption(options, 'reference');
      const reason = optional(options, 'reason');
      const body = reason === undefined ? {} : { Reason: reason };
      checkAgainstContract(bookingReferenceParams, 'params', { Reference: reference }, { Reference: 'reference' });
      checkAgainstContract(cancelBookingRequestSchema, 'body', body, { Reason: 'reason' });
      const { value } = await cancelBooking({ pool }, { owner: { accountId: account.id, partnerId: null }, reference }, body, ADMIN_CLI);
      return value;
    },
  },

  'list-bookings': {
    summary: "List an account's bookings of every channel (ota, online, pos) with status, partner and payment references.",
    usage: '--account <uuid> [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>] (timeslot dates, local to each activity)',
    options: { account: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
    async run(options, { pool }) {
      const account = await accountOf(pool, options);
      return (await listBookings(pool, account.id, { from: dateOption(options, 'from') ?? null, to: dateOption(options, 'to') ?? null })).map(describeBooking);
    },
  },
};
