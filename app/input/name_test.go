package input

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCheckName(t *testing.T) {
	ok := []struct{ name, s string }{
		{"plain", "Ana María"},
		{"accents and apostrophe", "Zoë O'Brien-Núñez"},
		{"hebrew", "שרה כהן"},
		{"arabic", "مريم"},
		{"persian with ZWNJ", "می\u200cخواهم"},
		{"devanagari with ZWJ", "क्\u200dष"},
		{"sinhala with ZWJ", "ශ්\u200dරී"},
		{"chinese", "王小明"},
		{"emoji", "Nails 💅"},
		{"emoji ZWJ sequence", "Studio 👩\u200d🎨"},
		{"emoji with skin tone in ZWJ sequence", "👩🏽\u200d💻 Lab"},
		{"rainbow flag", "Pride 🏳\ufe0f\u200d🌈"},
		{"heart with presentation selector", "Love ❤\ufe0f"},
		{"keycap", "Room 1\ufe0f\u20e3"},
		{"ideographic variation", "葛\U000E0100"},
		{"scotland flag", "Team 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"},
		{"no-break space", "Dr.\u00a0Smith"},
		{"empty", ""},
	}
	for _, c := range ok {
		if err := CheckName(c.s); err != nil {
			t.Errorf("%s: CheckName(%q) = %v, want nil", c.name, c.s, err)
		}
	}
	bad := []struct {
		name string
		s    string
		r    rune
		kind string
	}{
		{"right-to-left override", "Ana\u202Eagrom", '\u202E', KindBidi},
		{"left-to-right override", "\u202DAna", '\u202D', KindBidi},
		{"right-to-left isolate", "Ana\u2067x", '\u2067', KindBidi},
		{"pop directional", "Ana\u202C", '\u202C', KindBidi},
		{"right-to-left mark", "Ana\u200F", '\u200F', KindBidi},
		{"arabic letter mark", "\u061CAna", '\u061C', KindBidi},
		{"zero-width space", "An\u200Ba", '\u200B', KindInvisible},
		{"ZWJ in latin", "A\u200Dna", '\u200D', KindInvisible},
		{"ZWNJ in latin", "A\u200Cna", '\u200C', KindInvisible},
		{"ZWNJ at the end", "مريم\u200c", '\u200C', KindInvisible},
		{"ZWNJ between scripts", "a\u200cب", '\u200C', KindInvisible},
		{"ZWJ after emoji before a letter", "💅\u200dA", '\u200D', KindInvisible},
		{"word joiner", "Ana\u2060", '\u2060', KindInvisible},
		{"BOM", "\uFEFFAna", '\uFEFF', KindInvisible},
		{"soft hyphen", "An\u00ADa", '\u00AD', KindInvisible},
		{"combining grapheme joiner", "An\u034Fa", '\u034F', KindInvisible},
		{"hangul filler", "\u3164", '\u3164', KindInvisible},
		{"halfwidth hangul filler", "Ana\uFFA0", '\uFFA0', KindInvisible},
		{"braille blank", "\u2800", '\u2800', KindInvisible},
		{"mongolian vowel separator", "Ana\u180E", '\u180E', KindInvisible},
		{"line separator", "Ana\u2028Bea", '\u2028', KindInvisible},
		{"variation selector after a letter", "Ana\uFE0F", '\uFE0F', KindInvisible},
		{"variation selector first", "\uFE0FAna", '\uFE0F', KindInvisible},
		{"tag outside a flag", "Ana\U000E0061", '\U000E0061', KindInvisible},
		{"unterminated flag", "🏴\U000E0067\U000E0062", '\U000E0067', KindInvisible},
		{"NUL", "An\x00a", 0, KindControl},
		{"tab", "An\ta", '\t', KindControl},
		{"C1 control", "An\u0085a", '\u0085', KindControl},
		{"invalid UTF-8", "An\xffa", utf8.RuneError, KindInvisible},
	}
	for _, c := range bad {
		err := CheckName(c.s)
		var ne *NameError
		if !errors.As(err, &ne) {
			t.Errorf("%s: CheckName(%q) = %v, want a *NameError", c.name, c.s, err)
			continue
		}
		if ne.Rune != c.r || ne.Kind != c.kind {
			t.Errorf("%s: got U+%04X (%s), want U+%04X (%s)", c.name, ne.Rune, ne.Kind, c.r, c.kind)
		}
	}
}

// FuzzCheckName: no panic; a refusal points at a character of the text that is of a refused
// kind; anything accepted holds no bidirectional control, no control character and no
// invisible separator, and is valid UTF-8.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"Ana", "می\u200cخواهم", "👩\u200d🎨", "Ana\u202Eagrom", "🏴\U000E0067\U000E007F", "\xff", "1\ufe0f\u20e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckName(s)
		if err != nil {
			var ne *NameError
			if !errors.As(err, &ne) {
				t.Fatalf("CheckName(%q) = %T, want *NameError", s, err)
			}
			if ne.Offset < 0 || ne.Offset >= len(s) {
				t.Fatalf("CheckName(%q): offset %d outside the text", s, ne.Offset)
			}
			if r, _ := utf8.DecodeRuneInString(s[ne.Offset:]); r != ne.Rune {
				t.Fatalf("CheckName(%q): reported U+%04X, the text has U+%04X there", s, ne.Rune, r)
			}
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("CheckName accepted invalid UTF-8 %q", s)
		}
		if strings.ContainsFunc(s, func(r rune) bool {
			return isBidi(r) || unicode.IsControl(r) || r == '\u200B' || r == '\uFEFF' || r == '\u2028' || r == '\u2060'
		}) {
			t.Fatalf("CheckName accepted %q", s)
		}
	})
}
