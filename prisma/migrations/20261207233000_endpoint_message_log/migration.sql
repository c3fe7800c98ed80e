-- One endpoint's message log (the dashboard's endpoint filter, the management API's
-- GET /webhook-endpoints/{endpointId}/messages) pages by event id, newest first. This index makes
-- each page a range scan of the endpoint's deliveries that stops at the page's size, however many
-- messages the endpoint has; (event_id, endpoint_id) and (endpoint_id, created_at) cannot.
CREATE INDEX "webhook_deliveries_endpoint_id_event_id_idx" ON "webhook_deliveries"("endpoint_id", "event_id");
