// The shop API's calls, one function per operation of /api/v2/shop/{Slug}/....
import { send, withQuery } from './api.js';

export interface ShopPrice {
  Amount: number;
  Currency: string;
}
export interface ShopActivity {
  ActivityID: string;
  Name: string;
  Description: string;
  DurationMinutes: number;
  Price: ShopPrice;
  MinParticipants: number;
  MaxParticipants: number;
}
export interface ShopPage {
  Name: string;
  Slug: string;
  Locale: string;
  Currency: string;
  TimeZone: string;
  Note: string;
  Terms: string;
  HoldMinutes: number;
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
export interface ShopActivityDetail extends ShopActivity {
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
}
export interface ShopHold {
  HoldID: string;
  ExpiresAt: string;
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
  Phone?: string;
}
export interface ShopBooking {
  Reference: string;
  Status: string;
  ActivityID: string;
  ActivityName: string;
  Date: string;
  Time: string;
  Participants: number;
  Total: ShopPrice;
  Customer: ShopCustomer;
  ManageToken: string;
  CanChange: boolean;
}
export interface ShopFile {
  FileID: string;
}

const base = (slug: string) => `/api/v2/shop/${encodeURIComponent(slug)}`;

export const shop = {
  page: (slug: string) => send<ShopPage>('GET', base(slug)),
  activity: (slug: string, activityId: string) => send<ShopActivityDetail>('GET', `${base(slug)}/activities/${encodeURIComponent(activityId)}`),
  dates: (slug: string, activityId: string, from: string, to: string) =>
    send<ShopDate[]>('GET', withQuery(`${base(slug)}/activities/${encodeURIComponent(activityId)}/dates`, { StartDate: from, EndDate: to })),
  timeslots: (slug: string, activityId: string, date: string) =>
    send<ShopTimeslot[]>('GET', withQuery(`${base(slug)}/activities/${encodeURIComponent(activityId)}/timeslots`, { Date: date })),
  hold: (slug: string, body: { ActivityID: string; Date: string; Time: string; Participants: number }) => send<ShopHold>('POST', `${base(slug)}/holds`, body),
  release: (slug: string, holdId: string) => send<undefined>('DELETE', `${base(slug)}/holds/${encodeURIComponent(holdId)}`),
  upload: (slug: string, file: File) =>
    send<ShopFile>('POST', withQuery(`${base(slug)}/files`, { Name: file.name }), file, { 'Content-Type': file.type || 'application/octet-stream' }),
  confirm: (slug: string, holdId: string, body: { Customer: ShopCustomer; Answers: ShopAnswer[]; Website: string }) =>
    send<ShopBooking>('POST', `${base(slug)}/holds/${encodeURIComponent(holdId)}/confirm`, body),
  manage: (slug: string, token: string) => send<ShopBooking>('GET', `${base(slug)}/manage/${encodeURIComponent(token)}`),
  cancel: (slug: string, token: string) => send<ShopBooking>('POST', `${base(slug)}/manage/${encodeURIComponent(token)}/cancel`),
  move: (slug: string, token: string, body: { Date: string; Time: string }) =>
    send<ShopBooking>('POST', `${base(slug)}/manage/${encodeURIComponent(token)}/move`, body),
};
