-- Deleting a group (DELETE /v2/groups/{id}) removes its agents' memberships with it.
alter table agent_groups
  drop constraint agent_groups_account_id_group_id_fkey,
  add constraint agent_groups_account_id_group_id_fkey
    foreign key (account_id, group_id) references groups (account_id, id) on delete cascade;
