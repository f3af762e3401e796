// A timeslot's waitlist: the queue with each entry's position, party, contact and offer state, the offers out and
// what became of earlier entries; staff add a caller, and offer, book or remove an entry by hand. The timeslot lives in
// the URL (reached from Availability); the rules (what fits, who may) are the API's, and its refusals are shown.
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { WaitlistEntry } from '@backbone/contracts/browser';
import { useAccountTime } from '../api/account-time.js';
import { weekdayLabel } from '../api/dates.js';
import { useMay } from '../api/session.hooks.js';
import { useUrlState } from '../api/url-state.js';
import { useAddWaitlistEntry, useWaitlist, useWaitlistAction } from '../api/waitlist.hooks.js';
import { Empty, ErrorState, Loading, problemDetail } from '../components/states.js';

const URL_STATE = ['TimeslotID', 'ActivityID', 'Date', 'Time'] as const;

const STATE_LABELS: Record<WaitlistEntry['State'], string> = {
  waiting: 'Waiting',
  offered: 'Offer sent',
  claimed: 'Booked',
  expired: 'Offer expired',
  removed: 'Removed',
};

function AddCaller({ timeslotId }: { timeslotId: number }) {
  const add = useAddWaitlistEntry(timeslotId);
  const [form, setForm] = useState({ Participants: '1', FirstName: '', LastName: '', Email: '', Phone: '' });
  const field = (name: keyof typeof form) => ({
    name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const phone = form.Phone.trim();
    add.mutate(
      {
        Participants: Number(form.Participants),
        Customer: { FirstName: form.FirstName.trim(), LastName: form.LastName.trim(), Email: form.Email.trim(), ...(phone ? { Phone: phone } : {}) },
      },
      { onSuccess: () => setForm({ Participants: '1', FirstName: '', LastName: '', Email: '', Phone: '' }) },
    );
  };
  return (
    <form className="card key-form" onSubmit={submit} aria-label="Add a caller">
      <h2>Add a caller</h2>
      <div className="row">
        <label>
          Participants
          <input type="number" min={1} inputMode="numeric" required {...field('Participants')} />
        </label>
        <label className="grow">
          First name
          <input required autoComplete="off" {...field('FirstName')} />
        </label>
        <label className="grow">
          Last name
          <input required autoComplete="off" {...field('LastName')} />
        </label>
      </div>
      <div className="row">
        <label className="grow">
          E-mail (the offer goes there)
          <input type="email" required autoComplete="off" {...field('Email')} />
        </label>
        <label className="grow">
          Phone (optional)
          <input type="tel" autoComplete="off" {...field('Phone')} />
        </label>
      </div>
      {add.isError && (
        <p className="form-error" role="alert">
          {problemDetail(add.error)}
        </p>
      )}
      {add.data && (
        <p className="muted" role="status">
          {add.data.Customer.FirstName} {add.data.Customer.LastName} is number {add.data.Position ?? '–'} on the waitlist.
        </p>
      )}
      <div>
        <button type="submit" disabled={add.isPending}>
          Add to the waitlist
        </button>
      </div>
    </form>
  );
}

function Entries({ entries }: { entries: WaitlistEntry[] }) {
  const act = useWaitlistAction();
  const may = useMay();
  const clock = useAccountTime();
  const name = (e: WaitlistEntry) => `${e.Customer.FirstName} ${e.Customer.LastName}`;
  return (
    <>
      {act.isError && <ErrorState error={act.error} />}
      <table className="table static waitlist-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Party</th>
            <th scope="col">Name</th>
            <th scope="col">Contact</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const live = e.State === 'waiting' || e.State === 'offered';
            return (
              <tr key={e.WaitlistID} className={live ? undefined : 'revoked'}>
                <td data-label="Position">{e.Position ?? '–'}</td>
                <td data-label="Party">{e.Participants}</td>
                {/* One element per cell: the phone's card layout puts each child of a cell in a grid cell of its own. */}
                <td data-label="Name">
                  <span>
                    {name(e)} {e.Channel === 'pos' && <span className="tag">caller</span>}
                  </span>
                </td>
                <td data-label="Contact" className="wrap">
                  <span>
                    <a href={`mailto:${e.Customer.Email}`}>{e.Customer.Email}</a>
                    {e.Customer.Phone && (
                      <>
                        <br />
                        <a href={`tel:${e.Customer.Phone}`}>{e.Customer.Phone}</a>
                      </>
                    )}
                  </span>
                </td>
                <td data-label="State">
                  <span>
                    {STATE_LABELS[e.State]}
                    {e.State === 'offered' && e.OfferExpiresAt && <span className="muted"> until {clock.dateTime(e.OfferExpiresAt)}</span>}
                    {e.BookingReference && (e.State === 'offered' || e.State === 'claimed') && <span className="mono"> {e.BookingReference}</span>}
                  </span>
                </td>
                <td data-label="" className="actions">
                  {e.State === 'waiting' && may('offerWaitlistEntry') && (
                    <button
                      type="button"
                      className="secondary small"
                      disabled={act.isPending}
                      onClick={() => act.mutate({ waitlistId: e.WaitlistID, action: 'offer' })}
                      aria-label={`Offer places to ${name(e)}`}
                    >
                      Offer
                    </button>
                  )}
                  {live && may('bookWaitlistEntry') && (
                    <button
                      type="button"
                      className="small"
                      disabled={act.isPending}
                      onClick={() => act.mutate({ waitlistId: e.WaitlistID, action: 'book' })}
                      aria-label={`Book ${name(e)}`}
                    >
                      Book
                    </button>
                  )}
                  {live && may('removeWaitlistEntry') && (
                    <button
                      type="button"
                      className="secondary small"
                      disabled={act.isPending}
                      onClick={() => act.mutate({ waitlistId: e.WaitlistID, action: 'remove' })}
                      aria-label={`Remove ${name(e)}`}
                    >
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}

export function WaitlistPage() {
  const [state] = useUrlState(URL_STATE);
  const timeslotId = state.TimeslotID && /^\d+$/.test(state.TimeslotID) ? Number(state.TimeslotID) : undefined;
  const waitlist = useWaitlist(timeslotId);
  const may = useMay();
  const when = state.Date ? `${weekdayLabel(state.Date)}${state.Time ? `, ${state.Time}` : ''}` : '';
  return (
    <div className="page">
      <div className="page-head">
        <h1>Waitlist{when ? ` of ${when}` : ''}</h1>
        {state.ActivityID && <Link href={`/availability?ActivityID=${state.ActivityID}${state.Date ? `&Week=${state.Date}` : ''}`}>← Availability</Link>}
      </div>
      {timeslotId === undefined && <Empty>Open a timeslot's waitlist from Availability.</Empty>}
      {timeslotId !== undefined && may('addWaitlistEntry') && <AddCaller timeslotId={timeslotId} />}
      {waitlist.isPending && timeslotId !== undefined && <Loading what="the waitlist" />}
      {waitlist.isError && <ErrorState error={waitlist.error} />}
      {waitlist.data && waitlist.data.Entries.length === 0 && <Empty>Nobody is waiting for this timeslot.</Empty>}
      {waitlist.data && waitlist.data.Entries.length > 0 && <Entries entries={waitlist.data.Entries} />}
    </div>
  );
}
