// Sending through SMTP_URL with nodemailer, and what an SMTP answer means for the message: a 4xx reply, or a server
// that cannot be reached, is temporary (try again later); a 5xx reply is permanent (the address or the content is
// refused, and trying again changes nothing).
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: { name: string; address: string };
  replyTo: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (the booking's reference); values never carry a line break. */
  headers: Record<string, string>;
}

export type SendResult = { kind: 'accepted'; messageId: string | null } | { kind: 'temporary' | 'permanent'; error: string };

export interface MailSender {
  send(mail: OutgoingMail): Promise<SendResult>;
  close(): void;
}

interface SmtpError extends Error {
  responseCode?: number;
  response?: string;
  code?: string;
}

export function classifySmtpError(error: SmtpError): SendResult {
  const reply = error.response ?? error.message;
  if (typeof error.responseCode === 'number' && error.responseCode >= 500) return { kind: 'permanent', error: reply };
  return { kind: 'temporary', error: error.code ? `${error.code}: ${reply}` : reply };
}

export function createSmtpSender(smtpUrl: string, connections: number): MailSender {
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: connections, maxMessages: Infinity });
  return {
    async send(mail) {
      try {
        const info = await transport.sendMail({
          from: mail.from,
          to: mail.to,
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          // An automated message: out-of-office replies and autoresponders should not answer it (RFC 3834).
          headers: { 'Auto-Submitted': 'auto-generated', ...mail.headers },
        });
        if (info.rejected.length > 0) return { kind: 'permanent', error: `recipient refused: ${info.response}` };
        return { kind: 'accepted', messageId: info.messageId ?? null };
      } catch (error) {
        return classifySmtpError(error as SmtpError);
      }
    },
    close() {
      transport.close();
    },
  };
}
