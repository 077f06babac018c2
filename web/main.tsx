import { createRoot } from 'react-dom/client';

function App() {
  return (
    <main>
      <h1>Pipefill</h1>
      <p>The congestion-control playground.</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
