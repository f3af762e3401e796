// Activities and their waiver questions (owners): the list with shopfront visibility, a form for a new activity, and
// for the chosen activity (in the URL) an edit form and its questions with a form to add one.
import { useState, type FormEvent } from 'react';
import { QUESTION_TYPES, type OperatorActivity, type QuestionType } from '@backbone/contracts/browser';
import { useActivities, useAddQuestion, useCreateActivity, useEditActivity, useQuestions } from '../api/activities.hooks.js';
import { useMay, useSession } from '../api/session.hooks.js';
import { useUrlState } from '../api/url-state.js';
import { Empty, ErrorState, Loading, problemDetail } from '../components/states.js';

const money = (amount: number, currency: string) => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount / 100);

function ActivityForm({ activity, onDone }: { activity?: OperatorActivity; onDone?: () => void }) {
  const session = useSession();
  const create = useCreateActivity();
  const edit = useEditActivity();
  const mutation = activity ? edit : create;
  const [form, setForm] = useState({
    Name: activity?.Name ?? '',
    Description: activity?.Description ?? '',
    DurationMinutes: String(activity?.DurationMinutes ?? 60),
    Price: activity ? (activity.Price.Amount / 100).toFixed(2) : '',
    Currency: activity?.Price.Currency ?? 'EUR',
    MaxParticipants: String(activity?.MaxParticipants ?? 10),
    TimeZone: activity?.TimeZone ?? session.data?.TimeZone ?? 'UTC',
  });
  const field = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const common = {
      Name: form.Name,
      Description: form.Description,
      DurationMinutes: Number(form.DurationMinutes),
      Price: { Amount: Math.round(Number(form.Price) * 100), Currency: form.Currency.toUpperCase() },
      MaxParticipants: Number(form.MaxParticipants),
    };
    if (activity) edit.mutate({ activityId: activity.ActivityID, changes: common }, { onSuccess: onDone });
    else create.mutate({ ...common, TimeZone: form.TimeZone }, { onSuccess: onDone });
  };
  return (
    <form className="card activity-form" onSubmit={submit} aria-label={activity ? `Edit ${activity.Name}` : 'New activity'}>
      <h2>{activity ? 'Edit activity' : 'New activity'}</h2>
      <div className="row">
        <label className="grow">
          Name
          <input name="Name" required maxLength={200} value={form.Name} onChange={field('Name')} />
        </label>
        <label>
          Duration (minutes)
          <input name="DurationMinutes" type="number" min={1} required value={form.DurationMinutes} onChange={field('DurationMinutes')} />
        </label>
        <label>
          Price
          <input name="Price" type="number" min={0} step="0.01" required value={form.Price} onChange={field('Price')} />
        </label>
        <label>
          Currency
          <input name="Currency" required pattern="[A-Za-z]{3}" maxLength={3} value={form.Currency} onChange={field('Currency')} />
        </label>
        <label>
          Max participants
          <input name="MaxParticipants" type="number" min={1} required value={form.MaxParticipants} onChange={field('MaxParticipants')} />
        </label>
        {!activity && (
          <label>
            Time zone
            <input name="TimeZone" required value={form.TimeZone} onChange={field('TimeZone')} />
          </label>
        )}
      </div>
      <label>
        Description
        <textarea name="Description" rows={2} value={form.Description} onChange={field('Description')} />
      </label>
      {mutation.isError && (
        <p className="form-error" role="alert">
          {problemDetail(mutation.error)}
        </p>
      )}
      <div>
        <button type="submit" disabled={mutation.isPending}>
          {activity ? 'Save' : 'Create activity'}
        </button>
      </div>
    </form>
  );
}

function Questions({ activity }: { activity: OperatorActivity }) {
  const may = useMay();
  const questions = useQuestions(activity.ActivityID);
  const add = useAddQuestion();
  const [draft, setDraft] = useState({ Question: '', Type: 'text' as QuestionType, Options: '', Required: false, PerParticipant: false });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = draft.Options.split(',')
      .map((o) => o.trim())
      .filter((o) => o !== '');
    add.mutate(
      {
        activityId: activity.ActivityID,
        question: {
          Question: draft.Question,
          Type: draft.Type,
          Required: draft.Required,
          PerParticipant: draft.PerParticipant,
          ...(options.length ? { Options: options } : {}),
        },
      },
      { onSuccess: () => setDraft({ ...draft, Question: '', Options: '' }) },
    );
  };
  return (
    <section className="card" aria-label={`Questions of ${activity.Name}`}>
      <h2>Waiver questions</h2>
      {questions.isPending && <Loading what="questions" />}
      {questions.isError && <ErrorState error={questions.error} />}
      {questions.data && questions.data.length === 0 && <Empty>No questions yet.</Empty>}
      {questions.data && questions.data.length > 0 && (
        <ol className="questions">
          {questions.data.map((q) => (
            <li key={q.ID}>
              <strong>{q.Question}</strong>{' '}
              <span className="muted">
                {q.Type}
                {q.Required ? ', required' : ''}
                {q.PerParticipant ? ', per participant' : ''}
                {q.Options.length ? ` (${q.Options.join(', ')})` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
      {may('addOperatorQuestion') && (
        <form className="row" onSubmit={submit} aria-label="New question">
          <label className="grow">
            Question
            <input name="Question" required value={draft.Question} onChange={(e) => setDraft({ ...draft, Question: e.target.value })} />
          </label>
          <label>
            Type
            <select name="Type" value={draft.Type} onChange={(e) => setDraft({ ...draft, Type: e.target.value as QuestionType })}>
              {QUESTION_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Options (comma-separated)
            <input name="Options" value={draft.Options} onChange={(e) => setDraft({ ...draft, Options: e.target.value })} />
          </label>
          <label className="check">
            <input type="checkbox" checked={draft.Required} onChange={(e) => setDraft({ ...draft, Required: e.target.checked })} /> Required
          </label>
          <label className="check">
            <input type="checkbox" checked={draft.PerParticipant} onChange={(e) => setDraft({ ...draft, PerParticipant: e.target.checked })} /> Per participant
          </label>
          <button type="submit" disabled={add.isPending}>
            Add question
          </button>
        </form>
      )}
      {add.isError && (
        <p className="form-error" role="alert">
          {problemDetail(add.error)}
        </p>
      )}
    </section>
  );
}

export function ActivitiesPage() {
  const may = useMay();
  const [state, setState] = useUrlState(['Activity'] as const);
  const activities = useActivities();
  const edit = useEditActivity();
  const chosen = activities.data?.find((a) => a.ActivityID === state.Activity);
  return (
    <div className="page">
      <div className="page-head">
        <h1>Activities</h1>
      </div>
      {activities.isPending && <Loading what="activities" />}
      {activities.isError && <ErrorState error={activities.error} />}
      {activities.data && activities.data.length === 0 && <Empty>No activities yet: create the first below.</Empty>}
      {activities.data && activities.data.length > 0 && (
        <table className="table static">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Duration</th>
              <th scope="col">Price</th>
              <th scope="col">Max</th>
              <th scope="col">Shopfront</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {activities.data.map((a) => (
              <tr key={a.ActivityID} data-activity={a.ActivityID} aria-selected={a.ActivityID === state.Activity}>
                <td data-label="Name">{a.Name}</td>
                <td data-label="Duration">{a.DurationMinutes} min</td>
                <td data-label="Price">{money(a.Price.Amount, a.Price.Currency)}</td>
                <td data-label="Max">{a.MaxParticipants}</td>
                <td data-label="Shopfront">{a.InShopfront ? 'offered' : 'hidden'}</td>
                <td data-label="" className="actions">
                  {may('editOperatorActivity') && (
                    <>
                      <button
                        type="button"
                        className="secondary small"
                        onClick={() => edit.mutate({ activityId: a.ActivityID, changes: { InShopfront: !a.InShopfront } })}
                        disabled={edit.isPending}
                      >
                        {a.InShopfront ? 'Hide from shopfront' : 'Offer in shopfront'}
                      </button>
                      <button type="button" className="secondary small" onClick={() => setState({ Activity: a.ActivityID })}>
                        Edit &amp; questions
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {edit.isError && <ErrorState error={edit.error} />}
      {chosen && may('editOperatorActivity') ? (
        <>
          <ActivityForm key={chosen.ActivityID} activity={chosen} />
          <Questions activity={chosen} />
        </>
      ) : (
        may('createOperatorActivity') && <ActivityForm />
      )}
    </div>
  );
}
