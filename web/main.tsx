import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import './app/styles.css';

createRoot(document.getElementById('root')!).render(<App />);
