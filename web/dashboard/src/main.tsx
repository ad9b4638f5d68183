import { prefetchFor } from './api/prefetch'
import './styles.css'

// The first reads go out before the app's code (React and every view) is loaded and evaluated.
prefetchFor(window.location.hash)
void import('./boot')
