-- Event ids (issue 24): the one place where an event takes its id. The settled horizon
-- (src/events/horizon.ts) relies on every transaction holding its transaction id (xid)
-- before it takes an event id from events_id_seq. This function takes the xid first (a
-- PL/pgSQL body runs its statements in order, whatever the planner does with the calling
-- statement), and is the id column's default: a writer that leaves the id out keeps the
-- invariant. src/events/event-id.test.ts fails when a writer calls nextval itself, names
-- the id column of an insert, or the default changes.
create or replace function next_event_id() returns bigint language plpgsql volatile as $$
begin
  perform pg_current_xact_id();
  return nextval('events_id_seq');
end
$$;

alter table events alter column id set default next_event_id();
