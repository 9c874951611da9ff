package dashboard_test

import (
	"os"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Every admin API route is in openapi.yaml with the session scheme (and
// the CSRF header on changes), and nothing else under /dashboard/ is.
func TestOpenAPIDocumentsAdminAPI(t *testing.T) {
	b, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Security []map[string]any `yaml:"security"`
		} `yaml:"paths"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var documented []string
	for path, item := range doc.Paths {
		if !strings.HasPrefix(path, "/dashboard/") {
			continue
		}
		for method, op := range item {
			key := strings.ToUpper(method) + " " + path
			documented = append(documented, key)
			var schemes []string
			for _, s := range op.Security {
				for k := range s {
					schemes = append(schemes, k)
				}
			}
			sort.Strings(schemes)
			want := "CSRFToken,DashboardSession"
			if method == "get" {
				want = "DashboardSession"
			}
			if strings.Join(schemes, ",") != want {
				t.Errorf("%s: security %v, want %s", key, schemes, want)
			}
		}
	}
	e := newEnv(t, nil)
	served := e.svc.Dashboard.APIRoutes()
	sort.Strings(documented)
	sort.Strings(served)
	if strings.Join(documented, "\n") != strings.Join(served, "\n") {
		t.Fatalf("documented:\n%s\nserved:\n%s", strings.Join(documented, "\n"), strings.Join(served, "\n"))
	}
}
