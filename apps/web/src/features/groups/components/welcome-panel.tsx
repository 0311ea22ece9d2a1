import { Link } from 'react-router';

/**
 * Home for a user with no groups (spec 1 section 1): one sentence and the action that fills it,
 * under the page heading 'Welcome' (home's header) and above the user's devices not in a group.
 */
export function WelcomePanel() {
  return (
    <section className="welcome-panel card" aria-label="Get started">
      <div className="welcome-panel__icon" aria-hidden="true">
        <i className="pi pi-box" />
      </div>
      <p className="welcome-panel__text">
        You are not in a group yet: add a device to get started, or ask a group admin to add you to their group by{' '}
        <span className="welcome-panel__nowrap">e-mail.</span>
      </p>
      <Link to="/add" className="p-button welcome-panel__action">
        <i className="pi pi-plus" aria-hidden="true" />
        <span>Add Device</span>
      </Link>
    </section>
  );
}
