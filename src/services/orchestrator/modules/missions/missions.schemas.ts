import { Type } from 'typebox'
import { LastResult } from '../submissions/submissions.schemas.js'

const Progress = Type.Object({ done: Type.Integer(), total: Type.Integer() })

export const MissionItem = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('task'), Type.Literal('sprint'), Type.Literal('capability'), Type.Literal('process')]),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('running'),
    Type.Literal('done'),
    Type.Literal('failed'),
    Type.Literal('blocked'),
    Type.Literal('parked')
  ]),
  renderAs: Type.Union([Type.Literal('task'), Type.Literal('sprint'), Type.Literal('workflow'), Type.Literal('action')]),
  progress: Progress
})

export const MissionView = Type.Object({
  id: Type.String(),
  renderAs: Type.Union([Type.Literal('checklist'), Type.Literal('goal')]),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('active'),
    Type.Literal('completed'),
    Type.Literal('failed'),
    Type.Literal('cancelled')
  ]),
  title: Type.String(),
  progress: Progress,
  deliverTo: Type.Null(),
  lastResult: LastResult,
  items: Type.Array(MissionItem),
  createdAt: Type.String()
})

export const MISSION_PAGE = { defaultLimit: 50, maxLimit: 200 } as const

export const MissionList = Type.Object({
  missions: Type.Array(MissionView),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next (older) page; null on the last page' })
})

// Unknown query parameters are dropped, never read: no parameter selects a tenant.
export const ListQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MISSION_PAGE.maxLimit,
      description: `Missions per page (default ${MISSION_PAGE.defaultLimit}, at most ${MISSION_PAGE.maxLimit})`
    })
  ),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'The `nextCursor` of the previous page, unchanged' }))
})
export const ErrorBody = Type.Object({ error: Type.String() })
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' }) })
