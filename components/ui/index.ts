// The small set of UI primitives every page uses; feature components compose these.
export { Button, cx, type ButtonProps, type ButtonVariant } from './button';
export { Badge, toneFor, type BadgeTone } from './badge';
export { TextField, TextArea, SelectField } from './field';
export { Card, CardHeader } from './card';
export { Dialog, type DialogProps } from './dialog';
export { JsonView } from './json-view';
export { Revealed } from './revealed';
export { Notice } from './notice';
export { Table } from './table';
export { RadioGroup, type RadioOption } from './radio-group';
