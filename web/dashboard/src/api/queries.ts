/** The dashboard's reads, one query key per route; /api/events invalidates them (live.tsx), so none polls. */
import { useQuery } from '@tanstack/react-query'
import { api, optionalGet, unwrap } from './client'
import { takePrefetched } from './prefetch'
import type { components, paths } from './schema'

type Json<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } }
}
  ? T
  : never

export type Status = Json<'/api/status', 'get'>
export type Task = Json<'/api/tasks', 'get'>[number]
export type TaskDetail = Json<'/api/sprint/task/{id}', 'get'>
export type ApprovalOverview = Json<'/api/approvals', 'get'>
export type Approval = ApprovalOverview['pending'][number]
export type ApprovalHistory = Json<'/api/approvals/history', 'get'>
export type Limits = Json<'/api/limits', 'get'>
export type GitDiff = Json<'/api/git/diff', 'get'>
export type MergeQueue = Json<'/api/merge', 'get'>
export type TaskMergeability = Json<'/api/git/proposal', 'get'>['tasks'][number]
export type MergeRun = MergeQueue['runs'][number]
export type MergeItem = MergeRun['items'][number]
export type { components }

type Answer<T> = { data?: T; error?: unknown; response: Response }

/** The answer the entry module already asked for (api/prefetch.ts), in openapi-fetch's shape; else a new request. */
async function firstRead<T>(url: string, request: () => Promise<Answer<T>>): Promise<Answer<T>> {
  const early = takePrefetched(url)
  if (!early) return request()
  const response = await early
  const body: unknown = await response.json().catch(() => undefined)
  return response.ok ? { data: body as T, response } : { error: body, response }
}

export const useStatus = () =>
  useQuery({ queryKey: ['status'], queryFn: async () => unwrap(await firstRead('/api/status', () => api.GET('/api/status'))) })

export const useTasks = () =>
  useQuery({
    queryKey: ['tasks'],
    queryFn: async () => {
      const result = await firstRead('/api/tasks', () => api.GET('/api/tasks'))
      // No sprint planned yet is an empty list, not an error.
      if (result.response.status === 404) return [] as Task[]
      return unwrap(result)
    }
  })

export const useTaskDetail = (id: string) =>
  useQuery({
    queryKey: ['task', id],
    queryFn: async () => unwrap(await api.GET('/api/sprint/task/{id}', { params: { path: { id }, query: { tailLines: '5' } } }))
  })

/**
 * An agent's permission request appends no event to the log (only a waiting task does), so pending
 * approvals are also asked for every 30 s while the page is visible: 2 requests a minute when idle.
 */
export const APPROVALS_POLL_MS = 30_000

export const useApprovals = () =>
  useQuery({
    queryKey: ['approvals'],
    queryFn: async () => unwrap(await firstRead('/api/approvals', () => api.GET('/api/approvals'))),
    refetchInterval: APPROVALS_POLL_MS,
    refetchIntervalInBackground: false
  })

export const useApprovalHistory = () =>
  useQuery({ queryKey: ['approvals', 'history'], queryFn: async () => unwrap(await api.GET('/api/approvals/history')) })

export const useLimits = () =>
  useQuery({ queryKey: ['limits'], queryFn: async () => unwrap(await firstRead('/api/limits', () => api.GET('/api/limits'))) })

export const useGitDiff = () => useQuery({ queryKey: ['git', 'diff'], queryFn: async () => unwrap(await api.GET('/api/git/diff')) })

/** Per DONE task of the newest sprint, whether it merges into the checked-out branch now (READY, BEHIND, CONFLICT, MERGED). */
export const useMergeability = () =>
  useQuery({ queryKey: ['git', 'proposal'], queryFn: async () => unwrap(await api.GET('/api/git/proposal')) })

/** The merge queue's newest runs (one page): merge events on /api/events refresh it. */
export const useMergeQueue = () =>
  useQuery({ queryKey: ['merge', 'queue'], queryFn: async () => unwrap(await api.GET('/api/merge', { params: { query: { limit: 20 } } })) })

/** Each task's state in the newest run that took it: a conflict a later run merged is no longer one. */
export function latestMergeStates(queue: MergeQueue | undefined): (MergeItem & { mergeId: string; target: string })[] {
  const seen = new Map<string, MergeItem & { mergeId: string; target: string }>()
  for (const run of queue?.runs ?? []) {
    for (const item of run.items) if (!seen.has(item.taskId)) seen.set(item.taskId, { ...item, mergeId: run.id, target: run.target })
  }
  return [...seen.values()]
}

/** A route of a view that slots in ahead of its API: null while this server does not serve it. */
export const useOptional = (url: string) => useQuery({ queryKey: ['optional', url], queryFn: () => optionalGet(url) })
