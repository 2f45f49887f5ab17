package admin

import (
	"testing"

	"frontdesk/ui/i18n"
)

// The activity filter names each kind of change through a key built at run time
// ("activity.prefix." + kind); every kind it offers has a name in every language.
func TestActivityKindsAreNamed(t *testing.T) {
	for _, lang := range i18n.Languages() {
		p := i18n.NewPrinter(lang.Code, i18n.Prefs{})
		for _, kind := range activityPrefixes {
			if key := "activity.prefix." + kind; p.T(key) == key {
				t.Errorf("%s: the activity filter's kind %q has no name", lang.Code, kind)
			}
		}
	}
}
