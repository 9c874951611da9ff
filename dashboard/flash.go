package dashboard

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// A notice is a one-time flash: the action that was just taken sets it in
// a short-lived cookie and redirects (POST/redirect/GET); the next page
// shows it and clears it. Nothing of it goes into the URL, so a reload, a
// bookmark or the back button never shows a notice of an earlier action.
// The cookie is bound to the session by an HMAC under the session's CSRF
// secret: another session, or a cookie planted from elsewhere, shows
// nothing.

const flashCookie = "cashier_dashboard_flash"

// flash is one notice: a message key, whether the action failed, and
// details the key's text is followed by (a test delivery's status).
type flash struct {
	Key    string `json:"k"`
	Failed bool   `json:"f,omitempty"`
	Detail string `json:"d,omitempty"`
}

func flashMAC(a *actor, body []byte) []byte {
	m := hmac.New(sha256.New, []byte("flash\x00"+a.session.CSRF))
	m.Write(body)
	return m.Sum(nil)
}

// setFlash keeps f for the next page of a's session (one minute at most).
func (s *Server) setFlash(w http.ResponseWriter, a *actor, f flash) {
	if len(f.Detail) > 300 {
		f.Detail = f.Detail[:300] + "…"
	}
	body, _ := json.Marshal(f)
	v := base64.RawURLEncoding.EncodeToString(body) + "." + base64.RawURLEncoding.EncodeToString(flashMAC(a, body))
	s.setCookie(w, flashCookie, v, 60)
}

// takeFlash returns the notice waiting for a's session, if any, and
// clears it.
func (s *Server) takeFlash(w http.ResponseWriter, r *http.Request, a *actor) (flash, bool) {
	c, err := r.Cookie(flashCookie)
	if err != nil || c.Value == "" {
		return flash{}, false
	}
	s.setCookie(w, flashCookie, "", -1)
	b64, mac64, ok := strings.Cut(c.Value, ".")
	if !ok || a == nil {
		return flash{}, false
	}
	body, err1 := base64.RawURLEncoding.DecodeString(b64)
	mac, err2 := base64.RawURLEncoding.DecodeString(mac64)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, flashMAC(a, body)) {
		return flash{}, false
	}
	var f flash
	if json.Unmarshal(body, &f) != nil || f.Key == "" {
		return flash{}, false
	}
	return f, true
}

// afterForm answers a form post: a notice for the next page, and back to
// the page the form came from (a path under the dashboard only).
func (s *Server) afterForm(w http.ResponseWriter, r *http.Request, a *actor, f flash) {
	s.setFlash(w, a, f)
	http.Redirect(w, r, nextPath(r.PostFormValue("next")), http.StatusSeeOther)
}

// nextPath is where a form goes back to: a dashboard path, without the
// notice parameter earlier versions put in URLs (bookmarks may hold one).
func nextPath(next string) string {
	if !strings.HasPrefix(next, Prefix) || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return Prefix
	}
	path, query, ok := strings.Cut(next, "?")
	if !ok {
		return next
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return path
	}
	q.Del("notice")
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}
