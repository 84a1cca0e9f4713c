// The obvious Go standard-library calls for the register entries whose answer depends on a
// runtime (specs/interpretations.toml `runtimes`). Each line printed is
// "ENTRY<TAB>PROBE<TAB>OBSERVED"; `python -m tools runtimes` runs this and groups the lines.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

func out(entry, probe, observed string) { fmt.Printf("%s\t%s\t%s\n", entry, probe, observed) }

// The code points whose treatment as whitespace differs between runtimes (INT-05).
var spaces = []rune{0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0,
	0x1680, 0x180E, 0x2000, 0x200A, 0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF}

func points(runes []rune) string {
	parts := []string{}
	for _, r := range runes {
		parts = append(parts, fmt.Sprintf("U+%04X", r))
	}
	return strings.Join(parts, " ")
}

func parsed(text string) string {
	var value any
	if err := json.Unmarshal([]byte(text), &value); err != nil {
		return "error"
	}
	encoded, _ := json.Marshal(value)
	return "ok " + string(encoded)
}

func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

func main() {
	// INT-05: strings.TrimSpace and strings.Fields (unicode.IsSpace).
	trimmed, split := []rune{}, []rune{}
	for _, r := range spaces {
		s := "a" + string(r) + "b"
		if strings.TrimSpace(string(r)+"a") == "a" {
			trimmed = append(trimmed, r)
		}
		if len(strings.Fields(s)) == 2 {
			split = append(split, r)
		}
	}
	out("INT-05", "strings.TrimSpace removes", points(trimmed))
	out("INT-05", "strings.Fields splits at", points(split))

	// INT-06: strings.ToLower.
	out("INT-06", "strings.ToLower(U+0130 U+03A3)", fmt.Sprintf("%U", []rune(strings.ToLower("\u0130\u03a3"))))
	out("INT-06", "strings.ToLower(AΣ)", fmt.Sprintf("%U", []rune(strings.ToLower("A\u03a3"))))

	// INT-07: len(s).
	out("INT-07", "len(\"é😀\")", strconv.Itoa(len("é😀")))
	out("INT-07", "utf8.RuneCountInString(\"é😀\")", strconv.Itoa(utf8.RuneCountInString("é😀")))

	// P2-INT-15: url.Values.Get of a repeated name.
	query, _ := url.ParseQuery("q=a&q=b")
	out("P2-INT-15", "url.ParseQuery(\"q=a&q=b\").Get(\"q\")", query.Get("q"))

	// INT-12, INT-25, INT-33: sort.Strings.
	names := []string{"\uff61", "\U0001F600"}
	sort.Strings(names)
	out("INT-33", "sort.Strings([U+FF61, U+1F600])", fmt.Sprintf("%U", []rune(strings.Join(names, ""))))

	// INT-14: bufio.Scanner with ScanLines.
	scanner := bufio.NewScanner(strings.NewReader("a\r\nb\rc\n\nd\r"))
	lines := []string{}
	for scanner.Scan() {
		lines = append(lines, strconv.Quote(scanner.Text()))
	}
	out("INT-14", "bufio.Scanner lines of \"a\\r\\nb\\rc\\n\\nd\\r\"", strings.Join(lines, " "))

	// INT-15: encoding/json Unmarshal into any.
	out("INT-15", "json.Unmarshal BOM", parsed("\ufeff{}"))
	out("INT-15", "json.Unmarshal NaN", parsed(`{"a":NaN}`))
	out("INT-15", "json.Unmarshal lone surrogate", parsed(`{"a":"x\ud800"}`))
	out("INT-15", "json.Unmarshal invalid UTF-8", parsed("{\"a\":\"x\xffy\"}"))

	// INT-16: duplicate names.
	out("INT-16", "json.Unmarshal duplicate", parsed(`{"a":1,"a":2}`))
	var record struct {
		A int `json:"a"`
	}
	json.Unmarshal([]byte(`{"a":1,"a":2}`), &record)
	out("INT-16", "json.Unmarshal duplicate into struct", strconv.Itoa(record.A))

	// INT-17: numbers into any are float64.
	out("INT-17", "json.Unmarshal 9007199254740993", parsed(`[9007199254740993]`))
	out("INT-17", "json.Unmarshal 1e400", parsed(`[1e400]`))

	// INT-18: the parser's depth limit, and bufio.Scanner's line length limit.
	for _, depth := range []int{64, 65, 128, 1000, 1025, 10000, 10001} {
		out("INT-18", fmt.Sprintf("json.Unmarshal depth %d", depth), strings.Fields(parsed(nested(depth)))[0])
	}
	for _, size := range []int{65535, 65536, 65537} {
		scanner := bufio.NewScanner(strings.NewReader(strings.Repeat("x", size) + "\nnext\n"))
		count := 0
		for scanner.Scan() {
			count++
		}
		err := "nil"
		if scanner.Err() != nil {
			err = scanner.Err().Error()
		}
		out("INT-18", fmt.Sprintf("bufio.Scanner line of %d bytes + LF", size), fmt.Sprintf("lines=%d err=%s", count, err))
	}
	for _, tail := range []string{"", "\r\n", "\r"} {
		for _, size := range []int{65534, 65535, 65536} {
			scanner = bufio.NewScanner(strings.NewReader("first\n" + strings.Repeat("x", size) + tail))
			count := 0
			for scanner.Scan() {
				count++
			}
			out("INT-18", fmt.Sprintf("bufio.Scanner \"first\\n\" + %d bytes + %q", size, tail), fmt.Sprintf("lines=%d err=%v", count, scanner.Err()))
		}
	}

	// INT-20: time.Parse(time.RFC3339, s), then a zero offset.
	for _, s := range []string{"2024-01-02T03:04:05Z", "2024-01-02t03:04:05z", "2024-01-02T03:04:05-00:00",
		"2024-01-02T03:04:05+01:00", "2024-01-02T03:04:60Z", "2024-01-02T03:04:05.1234567891Z",
		"2024-02-30T03:04:05Z", "2024-01-02 03:04:05Z", "20240102T030405Z", "2024-01-02T24:00:00Z",
		"2024-01-02T03:04:05,5Z", "2024-01-02T03:04:05.Z", "0000-01-02T03:04:05Z",
		"2024-01-02T3:04:05Z", "2024-01-02T03:4:05Z", "2024-1-02T03:04:05Z", "2024-01-02T03:04:05.9999999999Z",
		"2024-01-02T03:04:05+00:00", "2024-01-02T03:04:05+0000", "2024-01-02T03:04:05+00", "2024-01-02T03:04:05Z ",
		"2024-01-02T03:04:05.123Z", "2024-01-02T03:04:05.000Z", "2023-02-29T00:00:00Z", "2024-02-29T00:00:00Z",
		"2024-01-02T03:04:05+00:60", "+2024-01-02T03:04:05Z", "2024-01-02T03:04:05.1.2Z",
		"2024-01-02t03:04:05Z", "2024-01-02T03:04:05z", "2024-01-02T03:04:05.1234567891+00:00"} {
		t, err := time.Parse(time.RFC3339, s)
		verdict := "rejected"
		if err == nil {
			_, offset := t.Zone()
			verdict = fmt.Sprintf("accepted offset=%d %s", offset, t.UTC().Format(time.RFC3339Nano))
		}
		out("INT-20", "time.Parse(time.RFC3339, "+strconv.Quote(s)+")", verdict)
	}

	// INT-21: t.UTC().Format(time.RFC3339Nano).
	t, _ := time.Parse(time.RFC3339, "2024-01-02T03:04:05.120+00:00")
	out("INT-21", "Format(time.RFC3339Nano) of 05.120+00:00", t.UTC().Format(time.RFC3339Nano))
	t, _ = time.Parse(time.RFC3339, "2024-01-02T03:04:05.000Z")
	out("INT-21", "Format(time.RFC3339Nano) of 05.000Z", t.UTC().Format(time.RFC3339Nano))

	// INT-01: json.Marshal of a decoded value (escapes, key order, numbers).
	out("INT-01", "json.Marshal", parsed(`{"\uff61":1,"\ud83d\ude00":2,"s":"<&>\u2028","n":[2.0,1e21,1e-7,-0.0,0.1]}`))
	out("INT-01", "json.Marshal (U+0008, U+000C, the integer -0; "+runtime.Version()+")", parsed(`{"s":"\b\f","n":[-0,0]}`))

	// INT-35: now.Sub(ts).Hours() / 24 (Duration.Hours rounds hours and the rest apart; Sub saturates).
	now := time.Date(2024, 6, 15, 12, 0, 0, 0, time.UTC)
	for _, ts := range []time.Time{now.Add(-3028863605 * time.Millisecond), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)} {
		out("INT-35", "now.Sub("+ts.Format(time.RFC3339Nano)+").Hours() / 24", strconv.FormatFloat(now.Sub(ts).Hours()/24, 'g', -1, 64))
	}

	// INT-04: math.Pow(0.5, e) for e = i/64 + i/1000.
	pows := []string{}
	for i := 1; i <= 400; i++ {
		e := float64(i)/64 + float64(i)/1000
		pows = append(pows, strconv.FormatUint(math.Float64bits(math.Pow(0.5, e)), 16))
	}
	out("INT-04", "pow(0.5, i/64 + i/1000), i = 1..400 (bits)", strings.Join(pows, " "))

	// INT-41: decoding 10.0 and 1e1 into an int field.
	for _, text := range []string{`{"n":10}`, `{"n":10.0}`, `{"n":1e1}`, `{"n":"10"}`} {
		var value struct {
			N int `json:"n"`
		}
		verdict := "accepted"
		if err := json.Unmarshal([]byte(text), &value); err != nil {
			verdict = "rejected"
		}
		out("INT-41", "json.Unmarshal into int: "+text, verdict)
	}

	// INT-42: unknown members and null into a struct.
	var request struct {
		N int `json:"n"`
	}
	request.N = 7
	err := json.Unmarshal([]byte(`{"n":null,"other":1}`), &request)
	out("INT-42", "json.Unmarshal {\"n\":null,\"other\":1} into struct{N int} (N was 7)", fmt.Sprintf("err=%v N=%d", err, request.N))
}
