// One pass of the mail worker. Due messages are claimed (FOR UPDATE SKIP LOCKED: two workers never hold one row),
// sent, and their outcome recorded in the same transaction, so a worker killed mid-batch leaves its rows queued and
// they are sent again (a resend, which SMTP's at-least-once allows). Each sent message's workflow-email.sent event
// is published after that commit under the EventID fixed when the row was written, and stamped published once the
// queue took it: a kill between send and publish publishes it on the next pass, and the metering worker's dedupe key
// (event:<EventID>) keeps a resent message to one metered entry.
import type { Logger } from 'pino';
import {
  awaitDurable,
  claimDueMail,
  listUnpublishedMailEvents,
  markMailEventsPublished,
  recordMailOutcomes,
  withTransaction,
  type DueMail,
  type MailOutcome,
  type Pool,
} from '@backbone/db';
import type { EventPublisher } from '@backbone/publisher';
import { isStaffMailKind } from '@backbone/domain';
import { issueMailManageTokens, issueStaffLinkToken } from '@backbone/use-cases';
import { carriesManageLink, carriesStaffLink, composeMail, substituteManageToken, substituteStaffLinkToken } from './compose-mail.js';
import type { MailSender } from './smtp-sender.js';

export interface MailDeliveryOptions {
  pool: Pool;
  sender: MailSender;
  publisher: EventPublisher;
  from: string;
  /** The service's public base URL (PUBLIC_BASE_URL), the start of the manage and claim links; empty: no links. */
  publicBaseUrl: string;
  batchSize: number;
  retryBaseMs: number;
  giveUpAfterMs: number;
  logger: Logger;
}

const MAX_RETRY_WAIT_MS = 3_600_000;

/** Why a message is no longer wanted, or null: a reminder only for a booking still confirmed (the trigger withdraws it on a cancel or a move; this is the last look). */
function withdrawn(mail: DueMail): string | null {
  if (mail.kind === 'reminder' && mail.booking?.status !== 'confirmed') return `booking ${mail.booking?.status ?? 'gone'}`;
  // An offer whose places were let go or lapsed before it left (a worker down past its expiry) offers nothing.
  if (mail.kind === 'waitlist-offer') {
    if (mail.booking?.status !== 'on_hold') return `offer ${mail.booking?.status ?? 'gone'}`;
    if (typeof mail.data.OfferExpiresAt === 'string' && Date.parse(mail.data.OfferExpiresAt) <= Date.now()) return 'offer expired';
  }
  return null;
}

type Attempt = { rendered: DueMail['rendered']; outcome: MailOutcome };

/** The message as it would leave, or the outcome that stops it before any link is minted (withdrawn, does not render). */
function prepare(mail: DueMail, publicBaseUrl: string): { rendered: NonNullable<DueMail['rendered']> } | { settled: Attempt } {
  const reason = withdrawn(mail);
  if (reason) return { settled: { rendered: null, outcome: { kind: 'cancelled', reason } } };
  try {
    return { rendered: composeMail(mail, publicBaseUrl) };
  } catch (error) {
    return { settled: { rendered: null, outcome: { kind: 'failed', error: `does not render: ${(error as Error).message}` } } };
  }
}

async function attempt(
  mail: DueMail,
  rendered: NonNullable<DueMail['rendered']>,
  manageToken: string | undefined,
  options: MailDeliveryOptions,
): Promise<Attempt> {
  let outgoing = manageToken === undefined ? rendered : substituteManageToken(rendered, manageToken);
  const staff = isStaffMailKind(mail.kind);
  if (staff && carriesStaffLink(rendered)) {
    const token = await issueStaffLinkToken(options.pool, mail.id);
    // Accepted, revoked, resent, used or expired before it left: a link that opens nothing is not sent.
    if (!token) return { rendered, outcome: { kind: 'cancelled', reason: `${mail.kind} no longer pending` } };
    outgoing = substituteStaffLinkToken(rendered, token);
  }
  const result = await options.sender.send({
    // A staff e-mail is the platform's, not the account's customer correspondence: the account's name, no reply-to.
    from: { name: staff ? mail.accountName : (mail.settings.senderName ?? mail.accountName), address: options.from },
    replyTo: staff ? null : mail.settings.replyTo,
    to: mail.toAddress,
    ...outgoing,
    headers: mail.booking ? { 'X-Booking-Reference': mail.booking.reference } : {},
  });
  if (result.kind === 'accepted') return { rendered, outcome: { kind: 'sent', providerMessageId: result.messageId } };
  const failingFor = mail.firstFailureAt ? Date.now() - mail.firstFailureAt.getTime() : 0;
  if (result.kind === 'permanent' || failingFor >= options.giveUpAfterMs) return { rendered, outcome: { kind: 'failed', error: result.error } };
  const wait = Math.min(MAX_RETRY_WAIT_MS, options.retryBaseMs * 2 ** mail.attempts);
  return { rendered, outcome: { kind: 'retry', error: result.error, nextAttemptAt: new Date(Date.now() + wait) } };
}

/** Renders, mints the batch's manage links in one statement, and sends; answers each message's outcome in order. */
async function attemptBatch(due: readonly DueMail[], options: MailDeliveryOptions): Promise<Attempt[]> {
  const prepared = due.map((mail) => prepare(mail, options.publicBaseUrl));
  const linked = due.flatMap((mail, i) => {
    const ready = prepared[i]!;
    return 'rendered' in ready && mail.booking && carriesManageLink(ready.rendered) ? [i] : [];
  });
  // Outside the batch's transaction on purpose: the tokens commit before the messages leave, so a message sent by a
  // worker killed before its batch committed still opens its booking.
  const tokens = await issueMailManageTokens(
    options.pool,
    linked.map((i) => ({ accountId: due[i]!.accountId, bookingId: due[i]!.booking!.id })),
  );
  const tokenOf = new Map(linked.map((i, n) => [i, tokens[n]!]));
  return Promise.all(
    due.map((mail, i) => {
      const ready = prepared[i]!;
      return 'settled' in ready ? Promise.resolve(ready.settled) : attempt(mail, ready.rendered, tokenOf.get(i), options);
    }),
  );
}

/** Sends up to a batch of due messages; answers how many it claimed. */
export async function deliverDueMail(options: MailDeliveryOptions): Promise<number> {
  const claimed = await withTransaction(options.pool, async (client) => {
    const due = await claimDueMail(client, options.batchSize);
    if (due.length === 0) return 0;
    // A booking commits without waiting for the disk: its e-mail must not leave before the booking is durable.
    await awaitDurable(options.pool);
    const results = (await attemptBatch(due, options)).map((result, i) => ({ id: due[i]!.id, ...result }));
    await recordMailOutcomes(client, results);
    for (const { id, outcome } of results) if (outcome.kind !== 'sent') options.logger.info({ mailId: id, outcome }, 'mail not sent');
    return due.length;
  });
  await publishSentEvents(options);
  return claimed;
}

/**
 * Publishes the workflow-email.sent event of every sent message whose events the queue has not taken yet, and the
 * waitlist.notified event of a sent waitlist offer with it (both under EventIDs fixed when the row was written).
 */
export async function publishSentEvents(options: Pick<MailDeliveryOptions, 'pool' | 'publisher'>, limit = 1000): Promise<number> {
  const events = await listUnpublishedMailEvents(options.pool, limit);
  if (events.length === 0) return 0;
  await options.publisher.publishBulk(
    events.flatMap((event) => [
      { name: 'workflow-email.sent' as const, payload: { EventID: event.eventId, AccountID: event.accountId, OccurredAt: event.sentAt } },
      ...(event.waitlistNotified
        ? [
            {
              name: 'waitlist.notified' as const,
              payload: {
                EventID: event.waitlistNotified.eventId,
                AccountID: event.accountId,
                OccurredAt: event.sentAt,
                WaitlistID: event.waitlistNotified.waitlistId,
                MultiBookingID: event.waitlistNotified.multiBookingId,
              },
            },
          ]
        : []),
    ]),
  );
  await markMailEventsPublished(
    options.pool,
    events.map((event) => event.id),
  );
  return events.length;
}
