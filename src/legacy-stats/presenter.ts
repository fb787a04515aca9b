import type { AgentCountsRow, AgentRecordRow, ChatCountsRow, OverviewRecordRow, OverviewRow, UnitLabelsRow } from './repository.ts';
import type { AgentEntry, AgentRecord, Overview, OverviewRecord } from './schema.ts';

// The legacy export's field names (camelCase, `completed10toInf`, `droppedByVisitorInactivity`) are its clients'.

function chatCounters(row: ChatCountsRow) {
  return {
    completed: row.completed,
    completed1to3: row.completed1to3,
    completed3to5: row.completed3to5,
    completed5to10: row.completed5to10,
    completed10toInf: row.completed10toinf,
    dropped: row.dropped,
    droppedByVisitorInactivity: row.dropped_by_visitor,
    droppedByAgentInactivity: row.dropped_by_agent,
    triggered: row.triggered,
    avgDuration: row.avg_duration,
    avgFirstResponse: row.avg_first_response,
    avgResponse: row.avg_response,
    totalDuration: row.total_duration,
  };
}

function unitLabels(row: UnitLabelsRow) {
  return { unitId: row.unit_id, unitName: row.unit_name, unitLongName: row.unit_long_name };
}

export function toOverview(row: OverviewRow): Overview {
  return {
    visitors: row.visitors,
    channels: row.channels,
    chats: row.chats,
    ...chatCounters(row),
    missed: row.missed,
    offline: row.offline,
  };
}

export function toAgentEntry(row: AgentCountsRow): AgentEntry {
  return { userId: row.user_id, nickname: row.nickname, ...chatCounters(row) };
}

export function toOverviewRecord(row: OverviewRecordRow): OverviewRecord {
  return { ...unitLabels(row), ...toOverview(row) };
}

export function toAgentRecord(row: AgentRecordRow): AgentRecord {
  return { ...unitLabels(row), ...toAgentEntry(row) };
}
