-- Up Migration

-- An endpoint registered without EventTypes stored every type there was then; booking.updated came later. Endpoints
-- subscribed to every earlier type are taken to want every type, as their partner asked, and get it too.
UPDATE webhook_endpoints SET event_types = event_types || '{booking.updated}'
 WHERE event_types @> '{booking.created,booking.confirmed,booking.cancelled,booking.expired}'
   AND NOT event_types @> '{booking.updated}';

-- Down Migration

UPDATE webhook_endpoints SET event_types = array_remove(event_types, 'booking.updated');
