/** A terminal session as the service and its attachments share it. */
import type { PtyProcess } from './pty.js'
import type { ScreenModel } from './screen.js'

export type SessionKind = 'shell' | 'ai' | 'quartet'

export interface SessionMeta {
  id: string
  kind: SessionKind
  tool?: string
  tenantId: string
  pid: number
  createdAt: string
  status: 'running' | 'exited'
  exitCode?: number
  attached: number
}

export interface Session {
  meta: SessionMeta
  pty: PtyProcess
  screen: ScreenModel
  lastActivity: number
}
