// First: Zod reads its configuration when it loads, in whichever chunk that happens.
import './lib/zod-jitless';
import { createRoot } from 'react-dom/client';
import './styles/layers.css';
import 'primeicons/primeicons.css';
import 'primereact/resources/themes/lara-light-blue/theme.css';
import './styles/global.css';
import { App } from './app/app';
import { getSession } from './lib/auth/get-session';
import { applyBrand } from './lib/brand';

const container = document.getElementById('root');
if (!container) throw new Error('No #root element');

// The session check and the brand style sheet load together; the first frame is already in the
// brand's colours (the app itself stays blank until the session check answers).
const sessionCheck = getSession();
sessionCheck.catch(() => undefined); // handled by the AuthProvider
void applyBrand().then(() => createRoot(container).render(<App sessionCheck={sessionCheck} />));
