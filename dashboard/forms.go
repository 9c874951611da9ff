package dashboard

import (
	"net/http"
	"net/url"

	"github.com/stablecashier/cashier"
)

// backToForm answers a page form whose operation failed with the page the
// form came from (its next field), the error above the form and what was
// entered kept, instead of a bare error page: the user corrects it and
// sends it again. Signed-out and forbidden answers, and failures of the
// page itself, go the usual way (apiError).
func (s *Server) backToForm(w http.ResponseWriter, r *http.Request, a *actor, opErr error, title string, h pageHandler) {
	switch apiStatus(opErr) {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusInternalServerError:
		s.apiError(w, r, opErr)
		return
	}
	// The page is built as its GET would build it.
	next := nextPath(r.PostFormValue("next"))
	u, err := url.Parse(next)
	if err != nil {
		s.apiError(w, r, opErr)
		return
	}
	g := r.Clone(r.Context())
	g.Method, g.URL, g.RequestURI, g.Body = http.MethodGet, u, next, http.NoBody
	p := s.newPage(g, a, title)
	p.Error, p.Form = cashier.ErrorMessage(opErr), r.PostForm
	name, err := h(w, g, a, p)
	if err != nil {
		s.apiError(w, r, opErr)
		return
	}
	s.render(w, apiStatus(opErr), name, p)
}
