// The shop API's calls, one function per operation of /api/v2/shop/{Slug}/....
import type {
  ConfirmShopHoldRequest,
  CreateShopHoldRequest,
  JoinShopWaitlistRequest,
  listShopDatesOperation,
  MoveShopBookingRequest,
  Question,
  ResultOf,
  ShopActivityDetails,
  ShopBooking,
  ShopHold,
  ShopPage,
  ShopTimeslot,
  ShopWaitlistEntry,
  ShopWaitlistOffer,
  uploadShopFileOperation,
} from '@backbone/contracts/browser';
import { send, withQuery } from './api.js';

// The shapes are the shop contracts' own (type imports only: nothing of the contracts reaches the bundle).
export type {
  ShopActivity,
  ShopActivityDetails,
  ShopBooking,
  ShopHold,
  ShopPage,
  ShopTimeslot,
  ShopWaitlistEntry,
  ShopWaitlistOffer,
} from '@backbone/contracts/browser';
export type WaitlistRequest = JoinShopWaitlistRequest;
export type ShopQuestion = Question;
export type ShopDate = ResultOf<typeof listShopDatesOperation>[number];
export type ConfirmRequest = ConfirmShopHoldRequest;
export type ShopAnswer = NonNullable<ConfirmRequest['Answers']>[number];
export type ShopCustomer = ConfirmRequest['Customer'];
type UploadedFile = ResultOf<typeof uploadShopFileOperation>;

const page = (slug: string) => `/api/v2/shop/${encodeURIComponent(slug)}`;
const activity = (slug: string, activityId: string) => `${page(slug)}/activities/${encodeURIComponent(activityId)}`;
export const holdPath = (slug: string, token: string) => `${page(slug)}/holds/${encodeURIComponent(token)}`;
const bookingPath = (slug: string, token: string) => `${page(slug)}/bookings/${encodeURIComponent(token)}`;
const offerPath = (slug: string, token: string) => `${page(slug)}/waitlist-offers/${encodeURIComponent(token)}`;

export const shop = {
  page: (slug: string) => send<ShopPage>('GET', page(slug)),
  activity: (slug: string, activityId: string) => send<ShopActivityDetails>('GET', activity(slug, activityId)),
  dates: (slug: string, activityId: string, month: string) => send<ShopDate[]>('GET', withQuery(`${activity(slug, activityId)}/dates`, { Month: month })),
  timeslots: (slug: string, activityId: string, date: string) =>
    send<ShopTimeslot[]>('GET', withQuery(`${activity(slug, activityId)}/timeslots`, { Date: date })),
  hold: (slug: string, body: CreateShopHoldRequest) => send<ShopHold>('POST', `${page(slug)}/holds`, body),
  release: (slug: string, token: string) => send<undefined>('DELETE', holdPath(slug, token)),
  upload: (slug: string, token: string, file: File) =>
    send<UploadedFile>('POST', `${holdPath(slug, token)}/files`, file, {
      'Content-Type': file.type || 'application/octet-stream',
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    }),
  confirm: (slug: string, token: string, body: ConfirmRequest) => send<ShopBooking>('POST', `${holdPath(slug, token)}/confirm`, body),
  booking: (slug: string, token: string) => send<ShopBooking>('GET', bookingPath(slug, token)),
  cancel: (slug: string, token: string) => send<ShopBooking>('POST', `${bookingPath(slug, token)}/cancel`, {}),
  move: (slug: string, token: string, body: MoveShopBookingRequest) => send<ShopBooking>('POST', `${bookingPath(slug, token)}/move`, body),
  joinWaitlist: (slug: string, body: JoinShopWaitlistRequest) => send<ShopWaitlistEntry>('POST', `${page(slug)}/waitlist`, body),
  offer: (slug: string, token: string) => send<ShopWaitlistOffer>('GET', offerPath(slug, token)),
  claim: (slug: string, token: string, body: ConfirmRequest) => send<ShopBooking>('POST', `${offerPath(slug, token)}/claim`, body),
};
