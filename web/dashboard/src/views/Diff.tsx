/** A unified diff split into files and hunks, added and removed lines marked (text only, never HTML). */
export function DiffView({ diff }: { diff: string }) {
  const files = diff.split(/^(?=diff --git )/m).filter((part) => part.trim())
  if (files.length === 0) return <p className="empty">No changes.</p>
  return (
    <div className="diff" data-testid="diff">
      {files.map((file, i) => {
        const name = /^diff --git a\/(.*?) b\//.exec(file)?.[1] ?? `file ${i + 1}`
        const added = (file.match(/^\+(?!\+\+)/gm) ?? []).length
        const removed = (file.match(/^-(?!--)/gm) ?? []).length
        return (
          <details key={`${name}-${i}`} open>
            <summary>
              <span className="mono">{name}</span> <span className="add">+{added}</span> <span className="del">−{removed}</span>
            </summary>
            <pre>
              {file.split('\n').map((line, n) => (
                <span
                  key={n}
                  className={
                    line.startsWith('+') && !line.startsWith('+++')
                      ? 'add'
                      : line.startsWith('-') && !line.startsWith('---')
                        ? 'del'
                        : line.startsWith('@@')
                          ? 'hunk'
                          : undefined
                  }
                >
                  {line}
                  {'\n'}
                </span>
              ))}
            </pre>
          </details>
        )
      })}
    </div>
  )
}
