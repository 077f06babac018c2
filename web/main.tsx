import { createRoot } from 'react-dom/client';
import { Root } from './app/Root.tsx';
import './app/styles.css';
import { restoreUserCode } from './editor/userCode.ts';

// A link or the last session may run the user's own controller: it is loaded before the URL is read.
await restoreUserCode(window.location.search);
createRoot(document.getElementById('root')!).render(<Root />);
