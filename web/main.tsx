import { createRoot } from 'react-dom/client';
import { Root } from './app/Root.tsx';
import './app/styles.css';

createRoot(document.getElementById('root')!).render(<Root />);
