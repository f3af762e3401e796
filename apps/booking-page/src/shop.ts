// The shop API's calls, one function per operation of /api/v2/shop/{Slug}/....
import { send, withQuery } from './api.js';

export interface ShopActivity {
  ActivityID: string;
  Name: string;
  Description: string;
  DurationMinutes: number;
  TimeZone: string;
  Price: { Amount: number; Currency: string };
  MinParticipants: number;
  MaxParticipants: number;
}
export interface ShopPage {
  Slug: string;
  AccountName: string;
  Currency: string | null;
  Locale: string;
  TimeZone: string;
  Note: string;
  Terms: string;
  PaymentMethod: 'pay_at_venue';
  Activities: ShopActivity[];
}
export interface ShopQuestion {
  ID: number;
  Question: string;
  Type: 'text' | 'textarea' | 'select' | 'multiselect' | 'checkbox' | 'date' | 'email' | 'phone' | 'number' | 'file' | 'signature';
  Required: boolean;
  Options: string[];
  PerParticipant: boolean;
}
export interface ShopActivityDetails extends ShopActivity {
  Questions: ShopQuestion[];
}
export interface ShopDate {
  Date: string;
  Available: number;
}
export interface ShopTimeslot {
  Time: string;
  StartsAt: string;
  EndsAt: string;
  Available: number;
  Full: boolean;
}
export interface ShopAnswer {
  QuestionID: number;
  Participant?: number;
  Value?: string | number | boolean | string[];
  FileID?: string;
}
export interface ShopCustomer {
  FirstName: string;
  LastName: string;
  Email: string;
  Phone?: string | undefined;
}
export interface ShopBooking {
  Reference: string;
  Status: string;
  ActivityID: string;
  ActivityName: string;
  Date: string;
  Time: string;
  StartsAt: string;
  TimeZone: string;
  Participants: number;
  Customer: ShopCustomer;
  Price: { Currency: string; UnitAmount: number; TotalAmount: number };
  ExpiresAt: string | null;
  ChangeableUntil: string;
}
export interface ShopHold {
  Token: string;
  Booking: ShopBooking;
}
export interface ConfirmRequest {
  Customer: ShopCustomer;
  Answers: ShopAnswer[];
  AcceptTerms?: boolean;
  Website: string;
}

const page = (slug: string) => `/api/v2/shop/${encodeURIComponent(slug)}`;
const activity = (slug: string, activityId: string) => `${page(slug)}/activities/${encodeURIComponent(activityId)}`;
export const holdPath = (slug: string, token: string) => `${page(slug)}/holds/${encodeURIComponent(token)}`;
const bookingPath = (slug: string, token: string) => `${page(slug)}/bookings/${encodeURIComponent(token)}`;

export const shop = {
  page: (slug: string) => send<ShopPage>('GET', page(slug)),
  activity: (slug: string, activityId: string) => send<ShopActivityDetails>('GET', activity(slug, activityId)),
  dates: (slug: string, activityId: string, month: string) => send<ShopDate[]>('GET', withQuery(`${activity(slug, activityId)}/dates`, { Month: month })),
  timeslots: (slug: string, activityId: string, date: string) =>
    send<ShopTimeslot[]>('GET', withQuery(`${activity(slug, activityId)}/timeslots`, { Date: date })),
  hold: (slug: string, body: { ActivityID: string; Date: string; Time: string; Participants: number }) => send<ShopHold>('POST', `${page(slug)}/holds`, body),
  release: (slug: string, token: string) => send<undefined>('DELETE', holdPath(slug, token)),
  upload: (slug: string, token: string, file: File) =>
    send<{ FileID: string }>('POST', `${holdPath(slug, token)}/files`, file, {
      'Content-Type': file.type || 'application/octet-stream',
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    }),
  confirm: (slug: string, token: string, body: ConfirmRequest) => send<ShopBooking>('POST', `${holdPath(slug, token)}/confirm`, body),
  booking: (slug: string, token: string) => send<ShopBooking>('GET', bookingPath(slug, token)),
  cancel: (slug: string, token: string) => send<ShopBooking>('POST', `${bookingPath(slug, token)}/cancel`, {}),
  move: (slug: string, token: string, body: { Date: string; Time: string }) => send<ShopBooking>('POST', `${bookingPath(slug, token)}/move`, body),
};
