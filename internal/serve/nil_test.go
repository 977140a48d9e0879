package serve

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestServeNilServer: a nil *Server answers 500 and has zero options,
// rather than panicking.
func TestServeNilServer(t *testing.T) {
	var s *Server
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/version", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("nil server: %d, want 500", rec.Code)
	}
	if o := s.Options(); o.Slots != 0 || o.Run != nil {
		t.Errorf("nil server's options: %+v", o)
	}
	rec = httptest.NewRecorder()
	(&Server{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("zero server: %d, want 500", rec.Code)
	}
}
