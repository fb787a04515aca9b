-- Issue 18.10: agent ids came from one sequence shared by every account (agent_number_seq), so the gap between two
-- agents a tenant created told it how many agents every other tenant created meanwhile. Each account now numbers its
-- own agents: a new account starts at a random 9-digit number, and each agent takes the next one
-- (src/agents/repository.ts). Ids stay numeric strings, increasing within an account; existing ids do not change, and
-- an existing account continues after its own highest id.
create table agent_numbers (
  account_id text primary key,
  -- The last agent number this account handed out.
  last_number bigint not null
);
insert into agent_numbers (account_id, last_number)
select account_id, max(id::bigint) from agents where id ~ '^[0-9]{1,18}$' group by account_id;
alter table agents alter column id drop default;
