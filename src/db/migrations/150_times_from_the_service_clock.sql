-- Every time the API returns comes from the service's clock (deps.now(), passed as a parameter), never from the
-- database's now(): a test clock controls all of them, and instances whose clocks differ from the database's
-- cannot give one record two sources of time. Without defaults, an insert that forgets a time fails at once
-- instead of quietly taking the database's.
alter table accounts alter column created_at drop default;
alter table accounts alter column updated_at drop default;
alter table api_tokens alter column created_at drop default;
alter table agents alter column created_at drop default;
alter table groups alter column created_at drop default;
alter table tags alter column created_at drop default;
alter table bots alter column trigger_updated_at drop default;
alter table bots alter column created_at drop default;
alter table contacts alter column created_at drop default;
alter table contacts alter column updated_at drop default;
alter table conversations alter column updated_at drop default;
alter table paths alter column created_at drop default;
alter table uploads alter column created_at drop default;
alter table events alter column created_at drop default;
alter table webhooks alter column created_at drop default;
