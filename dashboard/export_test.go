package dashboard

// HoldPasswordChecks takes every password check slot of s, as sign-ins in
// progress would, until release is called.
func HoldPasswordChecks(s *Server) (release func()) {
	for range cap(s.checks) {
		s.checks <- struct{}{}
	}
	return func() {
		for range cap(s.checks) {
			<-s.checks
		}
	}
}

// SetSignInPerIP changes the per-IP sign-in limit; call it before the
// server answers any request.
func SetSignInPerIP(s *Server, n int) { s.cfg.SignInPerIP = n }

// IPBucket is the sign-in limit's bucket of the client address ip.
func IPBucket(s *Server, ip string) string { return s.ipBucket(ip) }

// PasswordChecks is how many password checks s runs at once.
func PasswordChecks(s *Server) int { return cap(s.checks) }
