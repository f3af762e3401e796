// Bookings as CSV rows: RFC 4180 quoting, CRLF line ends, and a ' before any cell a spreadsheet would run as a formula.
import { BOOKING_CSV_COLUMNS, type OperatorBooking } from '@backbone/contracts';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function bookingCsvHeader(): string {
  return `${BOOKING_CSV_COLUMNS.join(',')}\r\n`;
}

export function bookingCsvRow(b: OperatorBooking): string {
  const cells: Record<(typeof BOOKING_CSV_COLUMNS)[number], string | number | null> = {
    Reference: b.Reference,
    Status: b.Status,
    Channel: b.Channel,
    Partner: b.PartnerName,
    Activity: b.ActivityName,
    Date: b.Date,
    Time: b.Time,
    Participants: b.Participants,
    FirstName: b.Customer.FirstName,
    LastName: b.Customer.LastName,
    Email: b.Customer.Email,
    Phone: b.Customer.Phone,
    PaymentReference: b.PaymentReference,
    CreatedAt: b.CreatedAt,
  };
  return `${BOOKING_CSV_COLUMNS.map((column) => csvCell(cells[column])).join(',')}\r\n`;
}
