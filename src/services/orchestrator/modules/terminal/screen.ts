/**
 * The server-side screen model of one session: every byte the PTY writes goes through a headless
 * xterm, so a client that (re-)attaches gets the exact screen — the alternate screen of a
 * full-screen program included, with the cursor and the input modes the program set — instead of
 * a replay of a byte ring that may start mid-escape-sequence.
 */
import { createRequire } from 'node:module'

const requireLazily = createRequire(import.meta.url)
let xterm: { headless: typeof import('@xterm/headless'); serialize: typeof import('@xterm/addon-serialize') } | undefined

/**
 * Sent before a snapshot: leave the alternate screen, turn off every mouse and focus mode,
 * bracketed paste, application cursor/keypad, then clear. The snapshot turns back on only
 * what the program currently has on, so a client never keeps a mode the program dropped while
 * it was away (mouse reports typed into a shell as garbage).
 */
export const RESET_MODES =
  '\x1b[?1049l\x1b[?1047l\x1b[?47l' +
  '\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1004l\x1b[?1005l\x1b[?1006l\x1b[?1015l' +
  '\x1b[?2004l\x1b[?1l\x1b>\x1b[?25h\x1b[0m\x1b[H\x1b[2J\x1b[3J'

export interface ScreenModel {
  write(data: string): void
  resize(cols: number, rows: number): void
  /** Resolves once every write so far is parsed: the reset prefix and the serialized screen. */
  snapshot(): Promise<string>
  dispose(): void
}

export function createScreenModel(cols: number, rows: number, scrollback: number): ScreenModel {
  xterm ??= {
    headless: requireLazily('@xterm/headless') as typeof import('@xterm/headless'),
    serialize: requireLazily('@xterm/addon-serialize') as typeof import('@xterm/addon-serialize')
  }
  const terminal = new xterm.headless.Terminal({ cols, rows, scrollback, allowProposedApi: true })
  const serializer = new xterm.serialize.SerializeAddon()
  terminal.loadAddon(serializer)
  return {
    write: (data) => terminal.write(data),
    resize: (c, r) => terminal.resize(c, r),
    snapshot: () =>
      new Promise((resolve) => {
        terminal.write('', () => resolve(RESET_MODES + serializer.serialize({ scrollback })))
      }),
    dispose: () => terminal.dispose()
  }
}
