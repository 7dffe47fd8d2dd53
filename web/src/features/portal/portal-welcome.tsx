import { Link } from '@tanstack/react-router'
import { AuthLayout } from '../auth/auth-layout'

/** `/portal` signed out: the partner program's two front doors, sign up as a partner or log in. */
export default function PortalWelcome() {
  return (
    <AuthLayout title="Partner portal">
      <p>
        Partners build on Oeuvre’s API. Sign up to get a sandbox organisation with demo data and API credentials at
        once, then go live after our review.
      </p>
      <div className="page-actions">
        <Link to="/portal/signup" className="button button-primary">
          Sign up as a partner
        </Link>
        <Link to="/login" search={{ redirect: '/portal' }} className="button button-secondary">
          Log in
        </Link>
      </div>
      <p className="muted">
        Have an Oeuvre account already? Log in, then apply as a partner with it: your organisations stay as they are.
      </p>
    </AuthLayout>
  )
}
