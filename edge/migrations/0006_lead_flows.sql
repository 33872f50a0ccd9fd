-- Multi-step lead flows (edge/core/src/lead_flow.rs): a later step of a
-- flow records which flow and which step it is, and each step of a flow is
-- stored once per dealer, so a flow token cannot be replayed.
ALTER TABLE leads ADD COLUMN flow_of TEXT;
ALTER TABLE leads ADD COLUMN flow_step INTEGER;
CREATE UNIQUE INDEX leads_flow_step ON leads (dealer, flow_of, flow_step) WHERE flow_of IS NOT NULL;
