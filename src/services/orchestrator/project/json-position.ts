/**
 * Where a JSON text goes wrong, as line and column: JSON.parse on Node 20 often names no position,
 * and a user fixing `.quartet/config.json` by hand needs one.
 */
export interface JsonPosition {
  offset: number
  line: number
  column: number
}

/** The first offending position, or null when the text is valid JSON. */
export function findJsonErrorPosition(text: string): JsonPosition | null {
  let i = 0
  const fail = (): never => {
    throw new Stop(i)
  }
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const literal = (word: string): void => {
    if (!text.startsWith(word, i)) fail()
    i += word.length
  }
  const string = (): void => {
    i++
    while (i < text.length && text[i] !== '"') {
      const code = text.charCodeAt(i)
      if (code < 0x20) fail()
      if (text[i] === '\\') {
        i++
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail()
          i += 4
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x') || i >= text.length) fail()
      }
      i++
    }
    if (i >= text.length) fail()
    i++
  }
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))
    if (!match || match[0] === '' || match[0] === '-') fail()
    i += match![0].length
  }
  const value = (): void => {
    space()
    const char = text[i]
    if (char === '{') container('}', true)
    else if (char === '[') container(']', false)
    else if (char === '"') string()
    else if (char === 't') literal('true')
    else if (char === 'f') literal('false')
    else if (char === 'n') literal('null')
    else number()
  }
  const container = (close: string, keyed: boolean): void => {
    i++
    space()
    if (text[i] === close) return void i++
    for (;;) {
      if (keyed) {
        space()
        if (text[i] !== '"') fail()
        string()
        space()
        if (text[i] !== ':') fail()
        i++
      }
      value()
      space()
      if (text[i] === ',') {
        i++
        continue
      }
      if (text[i] === close) return void i++
      fail()
    }
  }
  try {
    value()
    space()
    if (i < text.length) fail()
    return null
  } catch (error) {
    if (!(error instanceof Stop)) throw error
    return positionOf(text, Math.min(error.offset, text.length))
  }
}

class Stop {
  constructor(readonly offset: number) {}
}

function positionOf(text: string, offset: number): JsonPosition {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return { offset, line, column: offset - before.lastIndexOf('\n') }
}
