// The OCTO contracts: the operations and the OCTO shapes they answer with.
export * from './octo.schemas.js';
export * from './operations.js';
export * from './get-octo-supplier.js';
export * from './list-octo-products.js';
export * from './get-octo-product.js';
export * from './get-octo-availability-calendar.js';
export * from './check-octo-availability.js';
export * from './reserve-octo-booking.js';
export * from './extend-octo-booking.js';
export * from './confirm-octo-booking.js';
export * from './update-octo-booking.js';
export * from './cancel-octo-booking.js';
export * from './delete-octo-booking.js';
export * from './get-octo-booking.js';
export * from './list-octo-bookings.js';
