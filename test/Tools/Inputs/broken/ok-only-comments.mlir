// nothing here
// expected-error {{not a check}}
