// What other workspaces may use of the mail worker: its parts started in-process (the bench, the operator API's
// preview). Its configuration is the separate entry './config', the local SMTP catcher './smtp-catcher'.
export {
  carriesManageLink,
  carriesStaffLink,
  composeMail,
  substituteStaffLinkToken,
  MANAGE_TOKEN_MARK,
  mailValues,
  manageLinkFor,
  substituteManageToken,
  templateFor,
} from './compose-mail.js';
export { deliverDueMail, publishSentEvents, type MailDeliveryOptions } from './mail-delivery.js';
export { startMailDelivery } from './mail-worker.js';
export { classifySmtpError, createSmtpSender, type MailSender, type OutgoingMail, type SendResult } from './smtp-sender.js';
